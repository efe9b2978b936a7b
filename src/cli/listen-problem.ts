// A local server that could not bind (`sandbox start`, `webhooks listen`), said in the words of their --port and
// --host flags: a usage error (exit 2), not a crash.
import { UsageError } from '../errors.js';
import { ListenFailed } from '../net/local-server.js';

/** Binds with `listen`; a ListenFailed becomes what to do about it. */
export async function listening<T>(listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    if (!(error instanceof ListenFailed)) throw error;
    const { port, host } = error;
    if (error.reason === 'in-use')
      throw new UsageError(
        `port ${port} on ${host} is in use`,
        'Choose another with --port (--port 0 picks a free one).',
      );
    if (error.reason === 'privileged')
      throw new UsageError(`port ${port} needs privileges`, 'Choose a port above 1023 with --port.');
    throw new UsageError(`${host} is not an address of this machine`, 'Give one of its addresses with --host.');
  }
}
