// Whether a process named in a lock or a file name still runs: signal 0 tests it without touching it.
import { kill } from 'node:process';

export function processAlive(pid: number): boolean {
  // 0 and negative numbers name process groups, not a process.
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it exists, it is someone else's
  }
}
