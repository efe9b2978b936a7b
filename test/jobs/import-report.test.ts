// The failed-rows report of an import is the service's word: it is streamed and only the rows of the user's file are
// kept (issue 27 item 8), and its link is followed only over https or http to this machine (item 9).
import http from 'node:http';
import https from 'node:https';
import { writeFileSync, readFileSync, createWriteStream } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { maxReportRecordChars, readFailureReport, type RowFailure } from '../../src/jobs/import/failure-report.js';
import { tempDir } from '../helpers/context.js';
import { run } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const strangers = 200_000;

/** A report of `strangers` rows for emails of nobody's file, then the file's own failed rows: generated as it is sent,
 * never held whole. */
function reportRows(own: string[][]): Readable {
  return Readable.from(
    (function* () {
      yield 'Row,Email,Status Code,Reason\n';
      let lines: string[] = [];
      for (let i = 1; i <= strangers; i++) {
        lines.push(`${i},stranger${i}@elsewhere.example,10100,invalid email`);
        if (lines.length === 5_000) {
          yield `${lines.join('\n')}\n`;
          lines = [];
        }
      }
      for (const row of own) yield `${row.join(',')}\n`;
    })(),
  );
}

interface ReportServer {
  baseUrl: string;
  requests: string[];
  close(): Promise<void>;
}

/** A storage host on 127.0.0.1 that answers every report link with a streamed report. */
async function startReportServer(own: string[][]): Promise<ReportServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/csv' });
    pipeline(reportRows(own), res).catch(() => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let sb: TestSandbox | undefined;
let storage: ReportServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await storage?.close();
  await sb?.close();
  storage = sb = undefined;
});

/** Three rows: a new prospect (succeeds), a bounced one (10700, failed) and an existing one (10400, unchanged). */
function threeRows(): string {
  const dir = tempDir('outreach-import-report-');
  writeFileSync(
    join(dir, 'leads.csv'),
    'Email,First Name\nnew.one@fresh.example,New\nbounced@example.com,Bo\ngrace@cobol.dev,Grace\n',
  );
  return dir;
}

describe("an import's failed-rows report", () => {
  it('of 200,000 rows for other emails: only the rows of the file are kept, the rest counted', async () => {
    sb = await startTestSandbox();
    storage = await startReportServer([
      ['3', 'bounced@example.com', '10700', 'bounced'],
      ['4', 'grace@cobol.dev', '10400', 'nothing to update'],
    ]);
    sb.sandbox.origin = storage.baseUrl;
    const dir = threeRows();
    const result = await run(['prospects', 'import', 'leads.csv', '--wait'], { env: sb.env, cwd: dir });
    expect(storage.requests).toHaveLength(1);
    expect(result.code).toBe(3);
    // What was kept is said: the report's rows less those for emails this chunk did not send.
    expect(result.stderr.trim().split('\n')).toEqual([
      'Rows 2-4: 200,000 rows of the report are not rows this chunk sent; they were ignored',
      `Imported leads.csv: 3 rows read, 3 sent in 1 chunk, 0 rejected, 1 succeeded, 1 unchanged, 1 failed. Reports: ${join(dir, 'leads.results.csv')}, ${join(dir, 'leads.failed.csv')}`,
      'error: 1 of 3 rows sent failed at the service',
      `hint: ${join(dir, 'leads.failed.csv')} holds the rows to fix, in your own columns, and ${join(dir, 'leads.results.csv')} says why for each; fix them and import that file.`,
    ]);
    expect(readFileSync(join(dir, 'leads.results.csv'), 'utf8')).toBe(
      'row,email,outcome,reason\n' +
        '2,new.one@fresh.example,succeeded,\n' +
        '3,bounced@example.com,failed,10700 bounced\n' +
        '4,grace@cobol.dev,unchanged,10400 nothing to update\n',
    );
  });

  it('is read as a stream, keeping only what the filter asks for', async () => {
    const path = join(tempDir('outreach-failure-report-'), 'report.csv');
    await pipeline(reportRows([['9', 'Mine@Example.com', '10700', 'bounced']]), createWriteStream(path));
    const into = new Map<string, RowFailure>();
    const counts = await readFailureReport(path, into, (email) => email === 'mine@example.com');
    expect(counts).toEqual({ rows: strangers + 1, kept: 1, ignored: strangers });
    expect([...into]).toEqual([['mine@example.com', { code: 10700, reason: '10700 bounced' }]]);
  });

  it('with a row longer than a report row can be stops reading it', async () => {
    const path = join(tempDir('outreach-failure-report-'), 'report.csv');
    writeFileSync(path, `Email,Reason\nmine@example.com,"${'x'.repeat(maxReportRecordChars + 1)}"\n`);
    await expect(readFailureReport(path, new Map(), () => true)).rejects.toThrow(/max_record_size|record/i);
  });
});

describe('a report link that is plain http to another machine', () => {
  it('is never requested: the rows are unknown, the message names the host, exit 3', async () => {
    sb = await startTestSandbox();
    sb.sandbox.origin = 'http://10.0.0.1';
    const hosts: string[] = [];
    for (const module of [http, https]) {
      const request = module.request.bind(module) as (...args: unknown[]) => http.ClientRequest;
      vi.spyOn(module, 'request').mockImplementation(((...args: unknown[]) => {
        // The client gives node:http options (hostname and port), not a URL.
        const { hostname, port } = args[0] as http.RequestOptions;
        hosts.push(port === undefined ? String(hostname) : `${hostname}:${port}`);
        return request(...args);
      }) as typeof module.request);
    }
    const dir = threeRows();
    const result = await run(['prospects', 'import', 'leads.csv', '--wait'], { env: sb.env, cwd: dir });
    expect(result.code).toBe(3);
    // Every request went to the sandbox (the spy saw them), none to the link's host.
    expect(hosts.length).toBeGreaterThan(2);
    expect(hosts.every((host) => host === new URL(sb!.baseUrl).host)).toBe(true);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toMatch(
      /^Rows 2-4: accepted; its report was not downloaded \(the report link to 10\.0\.0\.1 is not https; only https links \(or http to this machine\) are followed, so nothing was sent to it\)\. Its link is shown by: outreach prospects import-status \S+$/,
    );
    expect(lines[1]).toMatch(
      /^Imported leads\.csv: 3 rows read, 3 sent in 1 chunk, .*3 unknown \(report not downloaded\)/,
    );
    const results = readFileSync(join(dir, 'leads.results.csv'), 'utf8').trim().split('\n').slice(1);
    expect(results.map((line) => line.split(',').slice(0, 3).join(','))).toEqual([
      '2,new.one@fresh.example,unknown',
      '3,bounced@example.com,unknown',
      '4,grace@cobol.dev,unknown',
    ]);
  });
});
