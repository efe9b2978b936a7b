// outreach version, -v and -V print the same version; outreach with no command is a usage mistake, as a group
// without its verb is.
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { packageVersion } from '../../src/cli/version.js';

describe('the version', () => {
  it('-v and -V print the version number; version adds Node.js and the platform, --json for scripts', async () => {
    for (const flag of ['-v', '-V', '--version'])
      expect(await run([flag])).toMatchObject({ code: 0, stdout: `${packageVersion()}\n`, stderr: '' });
    const platform = `${process.platform}-${process.arch}`;
    expect(await run(['version'])).toMatchObject({
      code: 0,
      stdout: `outreach ${packageVersion()} (Node.js ${process.versions.node}, ${platform})\n`,
    });
    expect(JSON.parse((await run(['version', '--json'])).stdout)).toEqual({
      version: packageVersion(),
      node: process.versions.node,
      platform,
    });
  });

  it('no command prints the help on stderr and exits 2, as a group without its verb does', async () => {
    const bare = await run([]);
    const group = await run(['tasks']);
    expect({ code: bare.code, stdout: bare.stdout }).toEqual({ code: 2, stdout: '' });
    expect(bare.stderr).toMatch(/^Usage: outreach \[options\] \[command\]\n/);
    expect({ code: group.code, stdout: group.stdout }).toEqual({ code: 2, stdout: '' });
  });
});
