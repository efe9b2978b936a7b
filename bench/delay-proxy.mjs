// A TCP proxy on 127.0.0.1 that holds every piece of the server's answers for `ms` before passing it on: a service
// one round trip of `ms` away (the request goes at once, the answer comes `ms` later), for reads whose wait is the
// trip. Order is kept: every piece waits the same. It runs as a process of its own (the benchmarks time their
// commands with spawnSync, which would stop a proxy in their own event loop).
// Usage: node delay-proxy.mjs TARGET_URL MS (prints "base URL: ..." once listening)
import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { announcedBaseUrl } from './lib.mjs';

/** Starts the proxy in a child process; `close` stops it. */
export async function startDelayProxy(targetUrl, ms) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), targetUrl, String(ms)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { baseUrl: await announcedBaseUrl(child, 'delay proxy'), close: () => child.kill() };
}

function serve(targetUrl, ms) {
  const target = new URL(targetUrl);
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) s.on('error', () => (client.destroy(), upstream.destroy()));
    client.pipe(upstream);
    upstream.on('data', (chunk) => setTimeout(() => client.writable && client.write(chunk), ms));
    upstream.once('end', () => setTimeout(() => client.end(), ms));
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`base URL: http://127.0.0.1:${server.address().port}\n`));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serve(process.argv[2], Number(process.argv[3]));
