import { describe, expect, it } from 'vitest';
import { unwritableFile } from '../../src/cli/unwritable-file.js';

const fsError = (code: string, syscall: string, path: string) =>
  Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });

describe('unwritableFile', () => {
  it('names the file a temporary one was to become, and why in words', () => {
    const error = fsError('EACCES', 'open', '/data/ro/.apollo.left-out.csv.outreach-tmp-4242-0a1b2c3d4e5f');
    expect(unwritableFile(error)).toBe('cannot write /data/ro/apollo.left-out.csv: permission denied');
    expect(unwritableFile(fsError('ENOSPC', 'write', '/data/leads.rejected.csv'))).toBe(
      'cannot write /data/leads.rejected.csv: no space left on the device',
    );
    expect(unwritableFile(fsError('EROFS', 'rename', '/mnt/x.csv'))).toBe(
      'cannot write /mnt/x.csv: a read-only file system',
    );
  });

  it('a full disk, as Node says it (a write error names no file)', () => {
    const error = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
      syscall: 'write',
    });
    expect(unwritableFile(error)).toBe('cannot write a file: no space left on the device');
  });

  it('leaves other errors to the general message', () => {
    expect(unwritableFile(fsError('ENOENT', 'open', '/data/missing.csv'))).toBeUndefined();
    expect(unwritableFile(fsError('EACCES', 'connect', '/run/socket'))).toBeUndefined();
    expect(unwritableFile(new Error('boom'))).toBeUndefined();
    expect(unwritableFile(undefined)).toBeUndefined();
  });
});
