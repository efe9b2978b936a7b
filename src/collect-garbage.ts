// One full garbage collection, asked of V8 through the inspector's in-process session: nothing is opened to the
// outside (no port, unlike --inspect). Reading a million do-not-contact values page by page promotes some 15 MB of
// short-lived request state to the old generation, which V8 collects only once that fills again: the import after
// the read ran with it, at some 20 MB more than one without the check. A Node built without the inspector skips it.
export async function collectGarbage(): Promise<void> {
  let inspector: typeof import('node:inspector');
  try {
    inspector = await import('node:inspector');
  } catch {
    return;
  }
  let session: InstanceType<typeof inspector.Session> | undefined;
  try {
    session = new inspector.Session();
    session.connect();
    await new Promise<void>((resolve) => session!.post('HeapProfiler.collectGarbage', () => resolve()));
  } catch {
    // A session that cannot connect: the garbage is collected later, as without this.
  } finally {
    session?.disconnect();
  }
}
