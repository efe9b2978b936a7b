// outreach enrich contacts / status / rate-limits through the real CLI against an in-process sandbox: results merged
// with the search columns, everyone else written back with a reason, credits asked for, pacing by the rate-limit
// windows on the test clock (no real waiting), and starts whose answer was lost.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir, testTime } from '../helpers/context.js';
import { fileStamp } from '../../src/format.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startFaultProxy, type FaultProxy, type ProxyFault } from '../helpers/fault-proxy.js';
import { state } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
let dir: string;
let proxy: FaultProxy | undefined;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir();
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await sb.close();
});

const cli = (argv: string[], extra: Parameters<typeof run>[1] = {}) => run(argv, { env: sb.env, cwd: dir, ...extra });
const starts = () => sb.sandbox.requestLog.filter((r) => r.path === '/v1/enrich/contact');
const lines = (text: string) => text.trim().split('\n').filter(Boolean);

/** `people search --csv` for the first `count` people of the index, saved as leads.csv. */
async function leads(count: number, env = sb.env): Promise<string> {
  const result = await run(['people', 'search', '--limit', String(count), '--csv'], { env });
  expect(result.code).toBe(0);
  const path = join(dir, 'leads.csv');
  writeFileSync(path, result.stdout);
  return path;
}

describe('enrich contacts', () => {
  it('--wait --csv writes everyone found, Email first with the search columns; the rest go to a file with why', async () => {
    const file = await leads(40);
    const result = await cli(['enrich', 'contacts', '--file', file, '--yes', '--wait', '--csv']);
    const [job] = state(sb).enrichments;
    const found = job!.people.filter((p) => p.email);
    const missing = job!.people.filter((p) => !p.email);
    expect(found.length).toBeGreaterThan(0);
    expect(missing.length).toBeGreaterThan(0);
    expect(result.code).toBe(3);
    const rows = lines(result.stdout);
    expect(rows[0]).toBe(
      'Email,First Name,Last Name,Job Title,Company,Company Website,LinkedIn URL,Department,City,State,Country',
    );
    const byId = new Map(sb.sandbox.store.peopleIndex().all.map((p) => [p.person.id, p.person]));
    expect(rows.slice(1).map((row) => row.split(',')[0])).toEqual(found.map((p) => p.email));
    const first = byId.get(found[0]!.personId!)!;
    expect(rows[1]).toContain(`,${first.job_title},${first.company_name},`);
    const rejects = lines(readFileSync(join(dir, 'leads.not-enriched.csv'), 'utf8'));
    expect(rejects[0]).toBe(
      'Person Id,First Name,Last Name,Job Title,Company,Company Website,LinkedIn URL,Department,City,State,Country,' +
        'Decision Maker,Reason',
    );
    expect(rejects.slice(1).map((r) => [r.split(',')[0], r.split(',').at(-1)])).toEqual(
      missing.map((p) => [String(p.personId), 'no email found']),
    );
    expect(result.stderr).toBe(
      `Enrichment: 40 of 40 people started in 1 request(s), ${found.length} with an email, ${found.length} credits ` +
        `charged, ${missing.length} not enriched: ${join(dir, 'leads.not-enriched.csv')}.\n` +
        `error: ${missing.length} of 40 people not enriched\n` +
        `hint: ${join(dir, 'leads.not-enriched.csv')} says why for each; send it again once fixed (people revealed ` +
        'before are not charged again).\n',
    );
  });

  it('batches 100 a request by lead id, prints the request ids without --wait, and rows naming nobody are kept', async () => {
    const file = await leads(150);
    writeFileSync(file, readFileSync(file, 'utf8') + ',Nobody,Here,,,,,,,,,no\n');
    const result = await cli(['enrich', 'contacts', '--file', file, '--yes']);
    const ids = state(sb).enrichments.map((e) => e.requestId);
    expect(ids).toHaveLength(2);
    expect(state(sb).enrichments.map((e) => e.people.length)).toEqual([100, 50]);
    expect(result.stdout).toBe(`${ids[0]}\n${ids[1]}\n`);
    expect(result.code).toBe(3);
    expect(lines(readFileSync(join(dir, 'leads.not-enriched.csv'), 'utf8'))[1]).toBe(
      ',Nobody,Here,,,,,,,,,no,no Person Id or LinkedIn URL',
    );
  });

  it('asks before spending credits, and without a terminal needs --yes', async () => {
    const file = await leads(3);
    const refused = await cli(['enrich', 'contacts', '--file', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'error: refusing to enrich 3 people without --yes: it spends credits\n' +
        'hint: Add --yes (there is no terminal to ask on).\n',
    );
    const declined = await cli(['enrich', 'contacts', '--file', file], {
      stdinIsTTY: true,
      stderrIsTTY: true,
      answers: [false],
    });
    expect({ code: declined.code, stderr: declined.stderr }).toEqual({
      code: 0,
      stderr: '? Enrich 3 people? This spends up to 3 credits. no\nNothing enriched.\n',
    });
    expect(starts()).toHaveLength(0);
  });

  it('reads NDJSON from stdin and LinkedIn URLs from flags; people revealed before cost nothing again', async () => {
    const searched = await run(['people', 'search', '--limit', '5', '--ndjson'], { env: sb.env });
    const first = await cli(['enrich', 'contacts', '--file', '-', '--yes', '--wait', '--ndjson'], {
      stdin: searched.stdout,
    });
    const people = lines(first.stdout).map((line) => JSON.parse(line));
    expect(people.length).toBeGreaterThan(0);
    expect(Object.keys(people[0])).toEqual(expect.arrayContaining(['id', 'full_name', 'picture_url', 'email']));
    expect(people[0].email).toMatch(/@/);
    const url = people[0].linkedin_url as string;
    const again = await cli(['enrich', 'contacts', '--linkedin-url', url, '--yes', '--wait', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)[0]).toMatchObject({ 'LinkedIn URL': url, email: people[0].email });
    const status = await cli(['enrich', 'status', JSON.parse(again.stdout)[0].enrichment.requestId, '--json']);
    expect(JSON.parse(status.stdout)[0]).toMatchObject({ totalRecords: 1, alreadyRevealed: 1, creditsCharged: 0 });
  });

  it("never writes over another run's not-enriched file: a name taken gets -2", async () => {
    const searched = await run(['people', 'search', '--limit', '40', '--csv'], { env: sb.env });
    // Another enrichment started in this same second holds the name this one would take.
    const now = testTime.now();
    const taken = join(dir, `enrich-${fileStamp(now)}.not-enriched.csv`);
    writeFileSync(taken, 'Person Id,Reason\n1,another run\n');
    const result = await cli(['enrich', 'contacts', '--file', '-', '--yes', '--wait', '--csv'], {
      stdin: searched.stdout,
      now: () => now,
    });
    const written = /not enriched: (\S+)\.$/m.exec(result.stderr)![1]!;
    expect(written).toBe(join(dir, `enrich-${fileStamp(now)}-2.not-enriched.csv`));
    expect(readFileSync(taken, 'utf8')).toBe('Person Id,Reason\n1,another run\n');
    expect(lines(readFileSync(written, 'utf8')).length).toBeGreaterThan(1);
  });

  it('waits for a used-up window to reset, saying so, and never gets a 429', async () => {
    sb.sandbox.store.settings.enrichmentLimits = { perMinute: 1, perHour: 100, perDay: 100 };
    const file = await leads(250);
    const result = await cli(['enrich', 'contacts', '--file', file, '--yes']);
    expect(result.code).toBe(0);
    expect(starts().map((r) => r.status)).toEqual([200, 200, 200]);
    const minutes = state(sb).enrichmentStarts.map((at) => Math.floor(at / 60_000));
    expect(new Set(minutes).size).toBe(3);
    expect(
      result.stderr.match(
        /^waiting: the enrichment rate limit \(per minute\) is used up; it resets at \d\d:\d\d:\d\d \(in (\d+s|1m0[01]s)\)$/gm,
      ),
    ).toHaveLength(2);
  });

  it('stops with exit 5 when the reset is beyond --rate-limit-wait, writing who was not started', async () => {
    sb.sandbox.store.settings.enrichmentLimits = { perMinute: 30, perHour: 100, perDay: 1 };
    const file = await leads(150);
    const result = await cli(['--rate-limit-wait', '60', 'enrich', 'contacts', '--file', file, '--yes']);
    expect(result.code).toBe(5);
    expect(starts()).toHaveLength(1);
    const rejects = lines(readFileSync(join(dir, 'leads.not-enriched.csv'), 'utf8')).slice(1);
    expect(rejects).toHaveLength(50);
    expect(rejects[0]).toMatch(
      /,"not started: the enrichment rate limit \(per day\) resets at \d\d:\d\d:\d\d, after --rate-limit-wait; send this file again then"$/,
    );
  });

  it('takes --limit-wait, its old name, alone only', async () => {
    sb.sandbox.store.settings.enrichmentLimits = { perMinute: 30, perHour: 100, perDay: 1 };
    const file = await leads(150);
    const both = await cli([
      '--rate-limit-wait',
      '60',
      'enrich',
      'contacts',
      '--file',
      file,
      '--yes',
      '--limit-wait',
      '60',
    ]);
    expect([both.code, both.stderr.split('\n')[0]]).toEqual([
      2,
      'error: --limit-wait is the old name of --rate-limit-wait: give one of them',
    ]);
    expect(starts()).toHaveLength(0);
    const old = await cli(['enrich', 'contacts', '--file', file, '--yes', '--limit-wait', '60']);
    expect(old.code).toBe(5);
    expect(starts()).toHaveLength(1);
  });

  async function throughProxy(fault: ProxyFault) {
    let faulted = false;
    proxy = await startFaultProxy(sb.baseUrl, ({ path }) => {
      if (path !== '/v1/enrich/contact' || faulted) return undefined;
      faulted = true;
      return fault;
    });
    return { ...sb.env, OUTREACH_BASE_URL: proxy.baseUrl };
  }

  it('a start whose answer was lost but which the service counted is not sent again', async () => {
    const file = await leads(10);
    const env = await throughProxy('reset-after');
    const result = await cli(['enrich', 'contacts', '--file', file, '--yes', '--wait'], { env });
    expect(result.code).toBe(1); // no one was enriched: every item failed
    expect(state(sb).enrichments).toHaveLength(1);
    expect(proxy!.log.filter((r) => r.path === '/v1/enrich/contact')).toHaveLength(1);
    const rejects = lines(readFileSync(join(dir, 'leads.not-enriched.csv'), 'utf8')).slice(1);
    expect(rejects).toHaveLength(10);
    expect(rejects[0]).toContain('the start may have been accepted but its answer was lost; send this file again');
  });

  it('a start lost before the service counted it is sent again, once', async () => {
    const file = await leads(10);
    const env = await throughProxy('reset-before');
    const result = await cli(['enrich', 'contacts', '--file', file, '--yes', '--wait', '--csv'], { env });
    expect(state(sb).enrichments).toHaveLength(1);
    const found = state(sb).enrichments[0]!.people.filter((p) => p.email).length;
    expect(lines(result.stdout)).toHaveLength(found + 1);
  });
});

describe('enrich contacts checks its input before spending credits', () => {
  it('--linkedin-url takes only LinkedIn profile URLs: anything else exits 2 naming the flag and value, nothing sent', async () => {
    const refused = await cli(['enrich', 'contacts', '--linkedin-url', 'not-a-url', '--yes']);
    expect({ code: refused.code, stdout: refused.stdout, stderr: refused.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --linkedin-url must be a LinkedIn profile URL such as https://www.linkedin.com/in/ada-lovelace, not ' +
        '"not-a-url" (not on linkedin.com)\nhint: See `outreach enrich contacts --help`.\n',
    });
    const others = [
      ['https://www.linkedin.com/company/acme', 'not a profile: the path must start /in/<name>'],
      ['ftp://linkedin.com/in/ada', 'not an http(s) URL'],
      ['https://linkedin.com.evil.example/in/ada', 'not on linkedin.com'],
    ];
    for (const [url, why] of others) {
      const result = await cli(['enrich', 'contacts', '--linkedin-url', url!, '--yes']);
      expect({ code: result.code, error: result.stderr.split('\n')[0] }).toEqual({
        code: 2,
        error: `error: --linkedin-url must be a LinkedIn profile URL such as https://www.linkedin.com/in/ada-lovelace, not "${url}" (${why})`,
      });
    }
    const tooBig = await cli(['enrich', 'contacts', '--lead-id', '99999999999999999999', '--yes']);
    expect({ code: tooBig.code, error: tooBig.stderr.split('\n')[0] }).toEqual({
      code: 2,
      error: 'error: --lead-id must be a person id (digits), not "99999999999999999999"',
    });
    expect(sb.sandbox.requestLog).toEqual([]);
    // A profile URL without its scheme or www is one, in any case, on a country subdomain too.
    const given = [
      'linkedin.com/in/nobody',
      'HTTPS://WWW.LINKEDIN.COM/IN/ADA',
      'https://uk.linkedin.com/in/grace?trk=x',
    ];
    for (const url of given) expect((await cli(['enrich', 'contacts', '--linkedin-url', url, '--yes'])).code).toBe(0);
    expect(state(sb).enrichments.map((e) => e.people.map((p) => p.value))).toEqual(given.map((u) => [u]));
  });

  it('an input with nobody in it (empty, a header only, an empty pipe) exits 2 as `dnc add` does, nothing sent', async () => {
    writeFileSync(join(dir, 'empty.csv'), '');
    writeFileSync(join(dir, 'header.csv'), 'Person Id,First Name,Last Name,LinkedIn URL\n');
    const hint =
      'hint: Give the CSV or NDJSON `outreach people search` writes: a Person Id or LinkedIn URL for each person.\n';
    for (const [argv, stdin, where] of [
      [['--file', 'empty.csv'], undefined, 'empty.csv'],
      [['--file', 'header.csv'], undefined, 'header.csv'],
      [['--file', '-'], '', 'stdin'],
      [['--file', '-'], '\n\n', 'stdin'],
    ] as const) {
      const result = await cli(['enrich', 'contacts', ...argv, '--yes', '--wait'], { stdin });
      expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: --file: ${where}: no people in it\n${hint}`,
      });
    }
    expect(sb.sandbox.requestLog).toEqual([]);
  });

  it('a file where no row names someone who can be enriched exits 2 naming the rows and columns, nothing sent', async () => {
    writeFileSync(
      join(dir, 'bad.csv'),
      'Person Id,First Name,Profile URL\n,Ada,not-a-url\nx1,Bob,\n,Cy,https://www.linkedin.com/company/acme\n,Di,\n',
    );
    const result = await cli(['enrich', 'contacts', '--file', 'bad.csv', '--yes']);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --file: bad.csv: nobody can be enriched, nothing was sent: row 2: Profile URL "not-a-url" is not a ' +
        'LinkedIn profile URL (not on linkedin.com); row 3: Person Id "x1" is not a person id (a whole number) and ' +
        'there is no LinkedIn URL; row 4: Profile URL "https://www.linkedin.com/company/acme" is not a LinkedIn ' +
        'profile URL (not a profile: the path must start /in/<name>); and 1 more\n' +
        'hint: Each person needs a Person Id (a whole number from `people search`) or a LinkedIn profile URL.\n',
    });
    const ndjson = await cli(['enrich', 'contacts', '--file', '-', '--yes'], {
      stdin: '{"full_name":"Ada Lovelace","linkedin_url":"www.linkedin.com/school/x"}\n',
    });
    expect({ code: ndjson.code, error: ndjson.stderr.split('\n')[0] }).toEqual({
      code: 2,
      error:
        'error: --file: stdin: nobody can be enriched, nothing was sent: line 1: linkedin_url ' +
        '"www.linkedin.com/school/x" is not a LinkedIn profile URL (not a profile: the path must start /in/<name>)',
    });
    expect(sb.sandbox.requestLog).toEqual([]);
    expect(existsSync(join(dir, 'bad.not-enriched.csv'))).toBe(false);
  });

  it('a row whose LinkedIn URL is no profile URL is written back with why; the others are enriched', async () => {
    const file = await leads(3);
    writeFileSync(file, readFileSync(file, 'utf8') + ',Nobody,Here,,,,not-a-url,,,,,no\n');
    const result = await cli(['enrich', 'contacts', '--file', file, '--yes']);
    expect(result.code).toBe(3);
    expect(starts()).toHaveLength(1);
    expect(state(sb).enrichments[0]!.people.map((p) => p.by)).toEqual(['lead_id', 'lead_id', 'lead_id']);
    expect(lines(readFileSync(join(dir, 'leads.not-enriched.csv'), 'utf8')).slice(1)).toEqual([
      ',Nobody,Here,,,,not-a-url,,,,,no,"LinkedIn URL ""not-a-url"" is not a LinkedIn profile URL (not on linkedin.com)"',
    ]);
  });
});

describe('enrich contacts stopped early', () => {
  it('a wait that times out writes everyone started back with their request, and says how to go on', async () => {
    const file = await leads(30);
    const result = await cli(['--wait-timeout', '1', 'enrich', 'contacts', '--file', file, '--yes', '--wait', '--csv']);
    const [job] = state(sb).enrichments;
    expect(result.code).toBe(1);
    expect(lines(result.stdout)).toEqual([
      'Email,First Name,Last Name,Job Title,Company,Company Website,LinkedIn URL,Department,City,State,Country',
    ]);
    const rejects = lines(readFileSync(join(dir, 'leads.not-enriched.csv'), 'utf8')).slice(1);
    expect(rejects).toHaveLength(30);
    expect(rejects[0]).toContain(
      `started in request ${job!.requestId}, results not read (still running at --wait-timeout); send this file again later`,
    );
    expect(result.stderr).toContain(`requests ${job!.requestId}.\n`);
    expect(result.stderr).toContain(
      `hint: They go on at the service. Send ${join(dir, 'leads.not-enriched.csv')} again later (people revealed before ` +
        `are not charged again), or follow them: outreach --wait-timeout 1 enrich status ${job!.requestId}\n`,
    );
  });

  it('a failure after some starts prints what was started and writes everyone else back, nobody lost', async () => {
    const file = await leads(150);
    let limitReads = 0;
    proxy = await startFaultProxy(sb.baseUrl, ({ path }) =>
      path === '/v1/enrich/rate-limits' && ++limitReads > 1 ? 'reset-before' : undefined,
    );
    const env = { ...sb.env, OUTREACH_BASE_URL: proxy.baseUrl };
    const result = await cli(['--max-retries', '1', 'enrich', 'contacts', '--file', file, '--yes'], { env });
    const [job] = state(sb).enrichments;
    expect(state(sb).enrichments).toHaveLength(1);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`${job!.requestId}\n`);
    const rejects = lines(readFileSync(join(dir, 'leads.not-enriched.csv'), 'utf8')).slice(1);
    expect(rejects).toHaveLength(50);
    expect(
      rejects.every((r) =>
        r.endsWith(
          ',not started (GET /v1/enrich/rate-limits failed after 2 attempts: ' +
            `connection closed by the server (${proxy!.baseUrl}))`,
        ),
      ),
    ).toBe(true);
  });

  it('--csv or --ndjson without --wait is refused: there would be only request ids', async () => {
    const result = await cli(['enrich', 'contacts', '--lead-id', '700001', '--yes', '--csv']);
    expect({ code: result.code, error: result.stderr.split('\n')[0] }).toEqual({
      code: 2,
      error: 'error: --csv needs --wait: without it there are only request ids to print',
    });
  });
});

describe('enrich status and rate-limits', () => {
  it('an empty request id is exit 2 before anything is sent', async () => {
    const result = await cli(['enrich', 'status', 'aB3dE5fG', ' ']);
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: 'error: <requestId> must not be empty\nhint: Request ids are printed by `outreach enrich contacts`.\n',
    });
    expect(sb.sandbox.requestLog).toEqual([]);
  });

  it('an unknown job is exit 2 with its id', async () => {
    const result = await cli(['enrich', 'status', 'nope123']);
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: 'error: no enrichment job nope123\nhint: Request ids are printed by `outreach enrich contacts`.\n',
    });
  });

  it('--wait follows a job from in-progress to completed', async () => {
    const file = await leads(4);
    const started = await cli(['enrich', 'contacts', '--file', file, '--yes']);
    const id = started.stdout.trim();
    const before = await cli(['enrich', 'status', id, '--json']);
    expect(JSON.parse(before.stdout)[0]).toMatchObject({ status: 'in-progress', processed: 0, totalRecords: 4 });
    const after = await cli(['enrich', 'status', id, '--wait']);
    const job = state(sb).enrichments[0]!;
    const succeeded = job.people.filter((p) => p.email).length;
    expect(after.code).toBe(0);
    expect(after.stdout).toBe(`${id}\tcompleted\t4\t4\t${succeeded}\t${4 - succeeded}\t0\t${succeeded}\n`);
    expect(after.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3_000);
  });

  it('rate-limits --json prints the answer as the service sent it; --ndjson on one line', async () => {
    await cli(['enrich', 'contacts', '--linkedin-url', 'https://www.linkedin.com/in/nobody', '--yes']);
    const sent = (await sb.request('GET', '/v1/enrich/rate-limits')).body.payload;
    const json = await cli(['enrich', 'rate-limits', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(sent);
    expect(JSON.parse(json.stdout).perMinute).toMatchObject({ limit: 30, remaining: 29 });
    const ndjson = await cli(['enrich', 'rate-limits', '--ndjson']);
    expect(ndjson.stdout).toBe(`${JSON.stringify(JSON.parse(ndjson.stdout))}\n`);
    expect(JSON.parse(ndjson.stdout)).toEqual(sent);
  });

  it('rate-limits --json passes on fields it does not know', async () => {
    // A service whose answer carries more than spec.md shows.
    const payload = {
      perMinute: { limit: 30, remaining: 12, resetAt: 1_795_003_260, used: 18 },
      perHour: { limit: 1000, remaining: 990, resetAt: 1_795_006_800 },
      perDay: { limit: 10000, remaining: 9990, resetAt: 1_795_046_400 },
      perMonth: { limit: 100000, remaining: 99990, resetAt: 1_796_256_000 },
      plan: 'growth',
    };
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Rate limits fetched', payload }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const env = { ...sb.env, OUTREACH_BASE_URL: `http://127.0.0.1:${port}` };
      const result = await cli(['enrich', 'rate-limits', '--json'], { env });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toEqual(payload);
      const piped = await cli(['enrich', 'rate-limits'], { env });
      expect(piped.stdout.split('\n').map((line) => line.split('\t').slice(0, 3).join(' '))).toEqual([
        'minute 30 12',
        'hour 1000 990',
        'day 10000 9990',
        '',
      ]);
    } finally {
      server.close();
    }
  });

  it('rate-limits shows each window with its reset as a local time and as a delay', async () => {
    await cli(['enrich', 'contacts', '--linkedin-url', 'https://www.linkedin.com/in/nobody', '--yes']);
    const now = testTime.now();
    const reset = (length: number) => Math.floor(now / length) * length + length;
    const local = (ms: number) => new Date(ms).toTimeString().slice(0, 8);
    const result = await cli(['enrich', 'rate-limits']);
    const seconds = (length: number) => Math.round((reset(length) - now) / 1000);
    expect(result.stdout.split('\n')[0]).toBe(`minute\t30\t29\t${local(reset(60_000))}\t${seconds(60_000)}s`);
    expect(result.stdout.split('\n')[2]).toMatch(new RegExp(`^day\\t10000\\t9999\\t${local(reset(86_400_000))}\\t`));
  });
});
