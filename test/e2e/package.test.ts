// What a user gets from the npm package: `npm pack`, then a global install of the tarball into an empty prefix gives a
// working `outreach` and its man page. Everything but jq-wasm is bundled in dist/, and jq-wasm travels inside the tarball
// (bundleDependencies), so the install needs no registry: it runs offline with an empty npm cache of its own, whatever
// the machine's cache holds. So does better-sqlite3, the sandbox's database driver, as source it builds on install.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/context.js';
import { cleanEnv } from '../helpers/spawn.js';

const root = join(import.meta.dirname, '../..');

describe('the npm package', () => {
  it('installs globally from its tarball with a working outreach and man page', { timeout: 540_000 }, () => {
    const work = tempDir('outreach-pack-');
    const npmEnv = {
      ...process.env,
      npm_config_loglevel: 'error',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      npm_config_cache: join(work, 'npm-cache'),
      // better-sqlite3 travels as source and is built with Node's headers (about a minute): never a download.
      npm_config_build_from_source: 'true',
    };
    // dist/ is built by `npm test` before the tests run; --ignore-scripts keeps pack from rebuilding it under them.
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: root, env: npmEnv });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'))!;
    const prefix = join(work, 'prefix');
    execFileSync('npm', ['install', '-g', '--offline', '--prefix', prefix, join(work, tarball)], {
      cwd: work,
      env: npmEnv,
    });

    const man = join(prefix, 'share/man/man1/outreach.1');
    expect(existsSync(man)).toBe(true);
    expect(readFileSync(man, 'utf8')).toBe(readFileSync(join(root, 'man/outreach.1'), 'utf8'));
    const bin = join(prefix, 'bin/outreach');
    const env = cleanEnv({ OUTREACH_CONFIG_DIR: join(work, 'config') });
    const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
    expect(execFileSync(bin, ['--version'], { env, encoding: 'utf8' })).toBe(`${version}\n`);
    // The sandbox's seed and the lazily loaded jq come along.
    const key = execFileSync(bin, ['--sandbox', 'inbox', 'categories', '--jq', '.[0].key'], { env, encoding: 'utf8' });
    expect(key).toBe('uncategorized\n');
    // The --sandbox state is an SQLite database, made by the driver the package installed.
    expect(
      readFileSync(join(work, 'config', 'sandbox', 'state.db'))
        .subarray(0, 15)
        .toString(),
    ).toBe('SQLite format 3');
  });
});
