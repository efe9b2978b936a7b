#!/usr/bin/env node
// Upload memory: the client's uploadFile (src/api/resources/uploads.ts, bundled here with esbuild) sends a 100 MiB
// file to a loopback server that reads and drops the body, while this process samples its RSS every 2 ms. Streaming
// from disk keeps the growth within buffers and GC lag, well under the file (target < 80 MiB); next to it, in the same
// run, the same upload of the file read whole first, which costs the file at least. BENCH_MIB (default 100) sets the
// size. This was a timed assertion in test/commands/uploads.test.ts; the test now checks only what is sent.
/* global AbortController, FormData */
import { Blob } from 'node:buffer';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { verdict } from './lib.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const outDir = here('./out/');
mkdirSync(outDir, { recursive: true });
const mib = Number(process.env.BENCH_MIB ?? 100);

// The client as the CLI has it: the one HTTP sender and the upload function, from the sources.
const clientPath = `${outDir}upload-client.mjs`;
await build({
  stdin: {
    contents: [
      "export { HttpClient } from './src/api/http.ts';",
      "export { uploadFile } from './src/api/resources/uploads.ts';",
      "export { attachmentsEndpoints } from './src/api/contract/attachments.ts';",
    ].join('\n'),
    resolveDir: here('../'),
    loader: 'ts',
  },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outfile: clientPath,
  logLevel: 'warning',
});
const { HttpClient, uploadFile, attachmentsEndpoints } = await import(clientPath);

// The file, written in 1 MiB pieces so this script never holds it.
const path = `${outDir}upload-${mib}MiB.bin`;
const fd = openSync(path, 'w');
for (let i = 0; i < mib; i++) writeSync(fd, Buffer.alloc(2 ** 20, i));
closeSync(fd);

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"payload":{"id":"a1"}}'));
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const http = new HttpClient({
  baseUrl: `http://127.0.0.1:${server.address().port}`,
  apiKey: 'sk_bench_uploads_0000',
  timeoutMs: 600_000,
  connectTimeoutMs: 5_000,
  maxRetries: 0,
  rateLimitWaitMs: () => 0,
  clock: { now: () => Date.now(), sleep: async () => undefined },
  random: () => 0.5,
  signal: new AbortController().signal,
  userAgent: 'bench',
});

/** Peak RSS growth (MiB) while `upload` runs, sampled every 2 ms. */
async function growth(upload) {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  const started = performance.now();
  try {
    const answer = await upload();
    if (answer.id !== 'a1') throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
  } finally {
    clearInterval(sample);
  }
  return { mib: (peak - before) / 2 ** 20, seconds: (performance.now() - started) / 1000 };
}

let streamed;
let whole;
try {
  streamed = await growth(() => uploadFile(http, attachmentsEndpoints.upload, path));
  // The floor to compare with: the same multipart upload of the file read into memory first.
  whole = await growth(async () => {
    const form = new FormData();
    form.set('file', new Blob([readFileSync(path)]), 'whole.bin');
    const e = attachmentsEndpoints.upload;
    return e.response.parse((await http.send(e.method, e.path, { form, replaySafe: e.replaySafe })).body);
  });
} finally {
  await http.close();
  server.close();
}
console.log(`upload of a ${mib} MiB file: peak RSS growth of this process`);
console.log(
  `  streamed from disk (uploadFile)  ${streamed.mib.toFixed(1).padStart(7)} MiB  ${streamed.seconds.toFixed(2)} s`,
);
console.log(
  `  read whole first (for contrast)  ${whole.mib.toFixed(1).padStart(7)} MiB  ${whole.seconds.toFixed(2)} s`,
);
const target = mib * 0.8;
console.log(`streamed growth < ${target.toFixed(0)} MiB (0.8 x the file): ${verdict(streamed.mib < target)}`);
