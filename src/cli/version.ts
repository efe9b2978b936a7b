// The version from package.json, written into the code by the bundler (scripts/build.mjs) and by vitest's config,
// so help and --version read no file.
declare const OUTREACH_VERSION: string;

export const packageVersion = (): string => OUTREACH_VERSION;
