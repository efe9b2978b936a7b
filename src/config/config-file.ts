// Profiles and credentials on disk, through conf. A folder the tool creates is 0700; one that exists is used as it is
// (never chmodded: it may be shared, like /tmp) unless others can write to it, which is refused. Files are 0600,
// checked after each write.
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { readOwnFile } from '../io/safe-file.js';
import { join } from 'node:path';
import { getuid } from 'node:process';
import type Conf from 'conf';
import { InputFileError } from '../errors.js';

export interface Profile {
  baseUrl?: string;
  apiKey?: string;
}

interface ConfigShape {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

export const configFileName = 'config.json';

/**
 * Refuses a config folder that another user could change (write to it, or own it): they could plant a profile that
 * sends the key elsewhere, or swap the file that holds it. Returns false when the folder does not exist yet.
 */
export function checkConfigDir(dir: string): boolean {
  let stat;
  try {
    stat = statSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new InputFileError(dir, `cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  if (!stat.isDirectory()) throw new InputFileError(dir, 'is not a folder', privateFolderHint);
  const uid = getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    throw new InputFileError(
      dir,
      `belongs to another user (uid ${stat.uid}); refusing to keep or read an API key there`,
      privateFolderHint,
    );
  const mode = stat.mode & 0o7777;
  if (mode & 0o022) {
    const shared = Boolean(mode & 0o1000); // sticky: a folder shared on purpose, like /tmp
    throw new InputFileError(
      dir,
      `can be written by other users (mode ${mode.toString(8)}); refusing to keep or read an API key there`,
      shared ? `It is a shared folder: set ${ownFolder}` : `Run: chmod go-w ${dir}`,
    );
  }
  return true;
}

const ownFolder = 'OUTREACH_CONFIG_DIR to a folder of your own (mkdir -m 700 ~/.config/outreach), or unset it.';
const privateFolderHint = `Set ${ownFolder}`;

/** Creates the folder 0700 if it is missing (only a folder it created gets its mode set), checks one that exists,
 * makes the files 0600, and fails loudly if the file system will not keep them. */
export function enforcePrivateModes(dir: string, files: string[]): void {
  if (!checkConfigDir(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700); // a umask cannot add bits, but a file system may not keep them: checked below
    const dirMode = statSync(dir).mode & 0o777;
    if (dirMode !== 0o700) throw new Error(`${dir} has mode ${dirMode.toString(8)}, expected 700`);
  }
  for (const file of files) {
    try {
      chmodSync(file, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const mode = statSync(file).mode & 0o777;
    if (mode !== 0o600)
      throw new Error(`${file} has mode ${mode.toString(8)}, expected 600; refusing to keep an API key there`);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads the config without loading conf (~130 ms of start-up): reads are plain JSON, writes go through conf. */
export function readConfigData(dir: string): ConfigShape {
  if (!checkConfigDir(dir)) return { profiles: {} };
  const path = join(dir, configFileName);
  const fix = `Fix it in an editor, or move it aside (mv ${path} ${path}.bad) and run \`outreach auth login\` again.`;
  let text: string | undefined;
  try {
    // Only a file of this user that no one else can write (not a link to one): another user could plant a profile
    // that sends the key elsewhere, or receive it.
    text = readOwnFile(path, 'config file', fix);
    if (text === undefined) return { profiles: {} };
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES')
      throw new InputFileError(path, 'cannot be read: permission denied', `Run: chmod 600 ${path}`);
    if (code === 'EISDIR') throw new InputFileError(path, 'is a folder, not a config file', fix);
    throw new InputFileError(path, `cannot be read (${code ?? (error as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputFileError(path, `is not valid JSON (${(error as Error).message})`, fix);
  }
  if (!isRecord(data) || (data.profiles !== undefined && !isRecord(data.profiles)))
    throw new InputFileError(path, 'is not an outreach config: expected {"profiles": {...}}', fix);
  const currentProfile = typeof data.currentProfile === 'string' ? data.currentProfile : undefined;
  return { currentProfile, profiles: (data.profiles ?? {}) as Record<string, Profile> };
}

/** Like ssh: a key file others can read is worth a warning, with the exact command that fixes it. (The folder's own
 * mode is its owner's choice: the key file in it is what must stay private; a folder others can write is refused.) */
export function looseModeWarnings(dir: string): string[] {
  const path = join(dir, configFileName);
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    return [];
  }
  return mode & 0o077 ? [`${path} can be read by other users (mode ${mode.toString(8)}); run: chmod 600 ${path}`] : [];
}

export interface ConfigView {
  readonly path: string;
  /** Config files other users can read, each with the chmod that fixes it. */
  readonly warnings?: string[];
  readonly currentProfile: string | undefined;
  profiles(): Record<string, Profile>;
  profile(name: string): Profile | undefined;
}

/** A read-only view of the config file, for every command that only needs the key and base URL. */
export function readConfig(dir: string): ConfigView {
  const data = readConfigData(dir);
  return {
    path: join(dir, configFileName),
    warnings: data.profiles && Object.keys(data.profiles).length ? looseModeWarnings(dir) : [],
    currentProfile: data.currentProfile,
    profiles: () => data.profiles,
    profile: (name) => data.profiles[name],
  };
}

export class ConfigFile implements ConfigView {
  private constructor(
    private readonly conf: Conf<ConfigShape>,
    readonly dir: string,
  ) {}

  static async open(dir: string): Promise<ConfigFile> {
    const { default: ConfModule } = await import('conf');
    readConfigData(dir); // a corrupt file stops here with its path and the fix, not inside conf
    enforcePrivateModes(dir, []);
    // cwd pins the folder, so conf's default "-nodejs" project suffix never applies.
    const conf = new ConfModule<ConfigShape>({
      cwd: dir,
      configName: 'config',
      projectName: 'outreach',
      configFileMode: 0o600,
      defaults: { profiles: {} },
      accessPropertiesByDotNotation: false,
    });
    return new ConfigFile(conf, dir);
  }

  get path(): string {
    return this.conf.path;
  }

  get currentProfile(): string | undefined {
    return this.conf.get('currentProfile');
  }

  profiles(): Record<string, Profile> {
    return this.conf.get('profiles') ?? {};
  }

  profile(name: string): Profile | undefined {
    return this.profiles()[name];
  }

  saveProfile(name: string, profile: Profile): void {
    this.conf.set('profiles', { ...this.profiles(), [name]: profile });
    this.afterWrite();
  }

  removeProfile(name: string): boolean {
    const profiles = this.profiles();
    if (!(name in profiles)) return false;
    delete profiles[name];
    this.conf.set('profiles', profiles);
    if (this.currentProfile === name) this.conf.delete('currentProfile');
    this.afterWrite();
    return true;
  }

  useProfile(name: string): void {
    this.conf.set('currentProfile', name);
    this.afterWrite();
  }

  private afterWrite(): void {
    enforcePrivateModes(this.dir, [this.path]);
  }
}
