// `outreach mcp` as an agent's client meets it: the official MCP client over stdio, a spawned `outreach --sandbox mcp`,
// and the sandbox's database read afterwards. Tools answer with the command's JSON; a destructive tool changes nothing
// until a second call carries its preview's token; the audit log records what was done.
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { binPath, cleanEnv, runBin, startSandboxProcess } from '../helpers/spawn.js';
import { tableRows } from '../helpers/state-db.js';

let client: Client | undefined;
let transport: StdioClientTransport | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** A server working in `dir`, its config folder `dir/config`. */
async function connect(dir: string, ...flags: string[]): Promise<Client> {
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath, '--sandbox', 'mcp', ...flags],
    env: cleanEnv({ OUTREACH_CONFIG_DIR: join(dir, 'config') }),
    cwd: dir,
    stderr: 'pipe',
  });
  client = new Client({ name: 'outreach-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

type Structured = Record<string, any>;
const structured = (result: unknown) => (result as { structuredContent: Structured }).structuredContent;
/** Tasks skipped in the sandbox's database. */
const skipped = (configDir: string) =>
  tableRows<{ doneStatus?: string }>(join(configDir, 'config', 'sandbox', 'state.db'), 'tasks').filter(
    (t) => t.doneStatus === 'skipped',
  ).length;

describe('outreach mcp', () => {
  it(
    'answers a tool with the command JSON, and an unknown id with its error and exit code',
    { timeout: 60_000 },
    async () => {
      const configDir = tempDir('outreach-mcp-');
      const mcp = await connect(configDir);
      const listed = await mcp.callTool({ name: 'tasks_list', arguments: { status: 'overdue', limit: 2 } });
      const items = structured(listed).items as Array<{ taskId: string; status: string }>;
      expect(items.map((t) => t.status)).toEqual(['overdue', 'overdue']);
      expect(JSON.parse((listed.content as Array<{ text: string }>)[0]!.text)).toEqual(structured(listed));

      const unknown = await mcp.callTool({ name: 'tasks_get', arguments: { taskId: 'tkNope' } });
      expect(unknown.isError).toBe(true);
      expect(structured(unknown)).toEqual({
        exitCode: 2,
        error: 'error: no task tkNope\nhint: See the ids with `outreach tasks list`.',
      });
      // A value of the wrong shape is refused by the schema, before any command runs.
      const bad = await mcp.callTool({ name: 'tasks_list', arguments: { limit: 'many' } });
      expect(bad.isError).toBe(true);
    },
  );

  it(
    'previews a destructive tool, refuses a wrong token, and acts only with the right one',
    { timeout: 60_000 },
    async () => {
      const configDir = tempDir('outreach-mcp-guard-');
      const mcp = await connect(configDir);
      const args = { whereStatus: 'overdue', whereType: 'call' };
      const preview = structured(await mcp.callTool({ name: 'tasks_bulk_skip', arguments: args }));
      const selection = preview.preview.items as string[];
      expect(selection.length).toBeGreaterThan(0);
      expect(preview.confirm).toMatch(/^\d+\.[\w-]{12}\.[\w-]{43}$/);
      const before = skipped(configDir); // nothing is skipped by the preview

      // The token of these arguments does not act on others.
      const moved = structured(
        await mcp.callTool({
          name: 'tasks_bulk_skip',
          arguments: { whereStatus: 'overdue', confirm: preview.confirm },
        }),
      );
      expect(moved.refused).toBe(
        'the confirm token is for other arguments, or what they select has changed since its preview',
      );
      expect(skipped(configDir)).toBe(before);

      // A bulk action is a job: a handle at once, its outcome once it ends.
      const started = structured(
        await mcp.callTool({ name: 'tasks_bulk_skip', arguments: { ...args, confirm: preview.confirm } }),
      );
      const id = started.job.id as string;
      // At once, with where it keeps its journal, in the folder the server works in.
      expect(started.job.journal).toMatch(new RegExp(`^${configDir}/bulk-skip-[\\d-]+\\.journal$`));
      await mcp.callTool({ name: 'job_status', arguments: { id, waitSeconds: 30 } });
      const done = structured(await mcp.callTool({ name: 'job_results', arguments: { id } }));
      expect(done).toMatchObject({ total: selection.length, skipped: selection.length, failed: 0 });
      // A token acts once.
      const again = structured(
        await mcp.callTool({ name: 'tasks_bulk_skip', arguments: { ...args, confirm: preview.confirm } }),
      );
      expect(again.refused).toMatch(/token (has been used: a token acts once|is for other arguments)/);
      expect(skipped(configDir)).toBe(before + selection.length);

      const audit = readFileSync(join(configDir, 'config', 'audit.ndjson'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Structured);
      expect(audit.map((e) => [e.tool, e.outcome])).toEqual([
        ['tasks_bulk_skip', 'preview'],
        ['tasks_bulk_skip', 'refused'],
        ['tasks_bulk_skip', 'done'],
        ['tasks_bulk_skip', 'refused'],
      ]);
      expect(audit[1]!.arguments).toEqual({ whereStatus: 'overdue', confirm: '***' });
    },
  );

  it('runs an import as a job: a handle at once, followed to its outcome', { timeout: 60_000 }, async () => {
    const configDir = tempDir('outreach-mcp-job-');
    const file = join(configDir, 'leads.csv');
    writeFileSync(
      file,
      'Email,First Name\n' +
        Array.from({ length: 500 }, (_, i) => `job${i}@x.example,J${i}`).join('\n') +
        '\nnot-an-email,Nobody\n',
    );
    const mcp = await connect(configDir);
    const started = structured(await mcp.callTool({ name: 'prospects_import', arguments: { file } }));
    expect(started.job).toMatchObject({
      journal: join(configDir, 'leads.import-journal'),
      command: `outreach prospects import ${file}`,
      sandbox: true,
    });
    const id = started.job.id as string;
    const status = structured(await mcp.callTool({ name: 'job_status', arguments: { id, waitSeconds: 30 } }));
    expect(status.job).toMatchObject({ id, state: 'done', sandbox: true });
    const outcome = structured(await mcp.callTool({ name: 'job_results', arguments: { id } }));
    // Some rows rejected is exit 3: an answer with its warning, not an error to retry.
    expect(outcome).toMatchObject({ total: 501, sent: 500, rejected: 1, exitCode: 3 });
    expect(outcome.warning).toContain('leads.rejected.csv says why');
    const imported = tableRows<{ email: string }>(join(configDir, 'config', 'sandbox', 'state.db'), 'prospects').filter(
      (p) => p.email.startsWith('job'),
    );
    expect(imported).toHaveLength(500);
    const audit = readFileSync(join(configDir, 'config', 'audit.ndjson'), 'utf8')
      .trim()
      .split('\n');
    expect(audit.map((line) => (JSON.parse(line) as Structured).outcome)).toEqual(['done']);
    expect(JSON.parse(audit[0]!).exitCode).toBe(3);

    const unknown = await mcp.callTool({ name: 'job_status', arguments: { id: 'jbNope' } });
    expect([unknown.isError, structured(unknown).exitCode]).toEqual([true, 2]);
  });

  it('keeps files in its folder and secrets out of the audit log', { timeout: 60_000 }, async () => {
    const configDir = tempDir('outreach-mcp-files-');
    const mcp = await connect(configDir);
    const call = async (name: string, args: Record<string, unknown>) =>
      structured(await mcp.callTool({ name, arguments: args }));
    // The config folder holds the keys: no tool reads it, not even as a list of emails.
    const keys = join(configDir, 'config', 'config.json');
    expect(await call('prospects_verify', { file: keys })).toEqual({
      exitCode: 2,
      error: `error: file: ${keys} is in ${join(realpathSync(configDir), 'config')}, which no tool reads or writes`,
    });
    expect((await call('dnc_export', { listId: 'dncGlobal1', output: '../elsewhere.csv' })).error).toMatch(
      /^error: output: \.\.\/elsewhere\.csv is outside the folder this server works in/,
    );
    expect((await call('dnc_add', { listId: 'dncGlobal1', file: '-' })).error).toBe(
      'error: file: stdin and stdout carry the protocol: give a file',
    );
    // A webhook is guarded; its preview is audited with the credentials in its URL and headers masked.
    const preview = await call('webhooks_create', {
      name: 'crm',
      url: 'https://hooks.example/services/T0/SECRETPATH?token=QUERYSECRET',
      event: ['reply-received'],
      header: ['Authorization: Bearer HEADERSECRET'],
    });
    expect(preview.confirm).toEqual(expect.any(String));
    const log = readFileSync(join(configDir, 'config', 'audit.ndjson'), 'utf8');
    expect(log).not.toMatch(/SECRET/);
    expect(JSON.parse(log.trim().split('\n').pop()!).arguments).toMatchObject({
      url: 'https://hooks.example/***',
      header: ['***'],
    });
  });

  it(
    'refuses what would touch more than --max-affected records, and keeps answers to the fields asked',
    { timeout: 60_000 },
    async () => {
      const dir = tempDir('outreach-mcp-max-');
      const mcp = await connect(dir, '--max-affected', '3');
      const call = async (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: args });
      const bulk = await call('tasks_bulk_skip', { whereStatus: 'overdue' });
      expect(bulk.isError).toBe(true);
      expect(structured(bulk).error).toMatch(
        /^error: this would touch \d+ records, more than --max-affected 3\nhint: /,
      );
      const few = await call('dnc_add', { listId: 'dncGlobal1', item: ['few1@x.example', 'few2@x.example'] });
      expect(few.isError).toBeFalsy();
      const job = structured(few).job as { id: string };
      expect(structured(await call('job_status', { id: job.id, waitSeconds: 30 })).job.state).toBe('done');
      const many = await call('dnc_add', {
        listId: 'dncGlobal1',
        item: ['m1@x.example', 'm2@x.example', 'm3@x.example', 'm4@x.example'],
      });
      expect(structured(many).error).toMatch(/would touch 4 records, more than --max-affected 3/);
      const audit = readFileSync(join(dir, 'config', 'audit.ndjson'), 'utf8')
        .trim()
        .split('\n');
      expect(audit.map((line) => (JSON.parse(line) as Structured).outcome)).toEqual(['refused', 'done', 'refused']);

      // Each value of a repeated flag is a record: forty lead ids are forty enrichments.
      const leads = await call('enrich_contacts', { leadId: ['1', '2', '3', '4'] });
      expect(structured(leads).error).toMatch(/would touch 4 records, more than --max-affected 3/);
      const categories = structured(await call('inbox_categories', { fields: ['key'], limit: 2 }));
      expect(categories.items).toHaveLength(2);
      for (const item of categories.items as object[]) expect(Object.keys(item)).toEqual(['key']);
    },
  );

  it('continues a job from its journal after the server restarts', { timeout: 60_000 }, async () => {
    const dir = tempDir('outreach-mcp-restart-');
    const file = join(dir, 'leads.csv');
    writeFileSync(file, 'Email\n' + Array.from({ length: 50 }, (_, i) => `again${i}@x.example`).join('\n') + '\n');
    // The first server sends the rows without waiting for the service's results: the journal stays for a resume.
    let mcp = await connect(dir);
    const first = structured(await mcp.callTool({ name: 'prospects_import', arguments: { file, wait: false } }));
    await mcp.callTool({ name: 'job_status', arguments: { id: first.job.id, waitSeconds: 30 } });
    await mcp.close();
    mcp = await connect(dir);
    const resumed = structured(
      await mcp.callTool({
        name: 'job_resume',
        arguments: { tool: 'prospects_import', arguments: { file, wait: true } },
      }),
    );
    expect(resumed.job.command).toBe(`outreach prospects import ${file} --wait --resume`);
    await mcp.callTool({ name: 'job_status', arguments: { id: resumed.job.id, waitSeconds: 30 } });
    const outcome = structured(await mcp.callTool({ name: 'job_results', arguments: { id: resumed.job.id } }));
    expect(outcome).toMatchObject({ total: 50, succeeded: 50, failed: 0 });
  });

  it(
    'runs a 100,000-row import as a job with progress, and resumes it once the server killed mid-import is back',
    { timeout: 180_000 },
    async () => {
      const dir = tempDir('outreach-mcp-big-');
      const file = join(dir, 'big.csv');
      const rows = 100_000;
      writeFileSync(file, 'Email\n' + Array.from({ length: rows }, (_, i) => `big${i}@x.example`).join('\n') + '\n');
      let mcp = await connect(dir);
      const pid = (transport as StdioClientTransport).pid!;
      const started = structured(await mcp.callTool({ name: 'prospects_import', arguments: { file } }));
      // The same work twice at once would send rows twice: a second job on this file is refused while it runs.
      const twice = await mcp.callTool({ name: 'job_resume', arguments: { id: started.job.id } });
      expect(structured(twice).error).toBe(
        `error: job ${started.job.id} is doing this already: follow it with job_status`,
      );
      // Followed with a progress token; killed (-9) once a progress report says a chunk was accepted.
      const reports: string[] = [];
      const followed = mcp
        .callTool(
          { name: 'job_status', arguments: { id: started.job.id, waitSeconds: 120 } },
          {
            onprogress: (progress) => {
              reports.push(progress.message ?? '');
              if (/ [1-9]\d*\/\d+ chunks accepted/.test(progress.message ?? '')) process.kill(pid, 'SIGKILL');
            },
          },
        )
        .catch(() => 'closed');
      expect(await followed).toBe('closed');
      // The lists are read first, then the rows. The 42 values of the sandbox's lists may be read before the follower
      // asks (then its first report is about rows): what the read reports is tested in dnc-read-progress.test.ts.
      const firstRows = reports.findIndex((r) => !r.startsWith('Reading do-not-contact lists: '));
      expect(reports[firstRows]).toMatch(/^big\.csv: [\d,]+ rows read/);
      expect(reports.slice(firstRows).filter((r) => r.startsWith('Reading'))).toEqual([]);
      client = undefined;

      mcp = await connect(dir);
      const resumed = structured(
        await mcp.callTool({ name: 'job_resume', arguments: { tool: 'prospects_import', arguments: { file } } }),
      );
      await mcp.callTool({ name: 'job_status', arguments: { id: resumed.job.id, waitSeconds: 120 } });
      const outcome = structured(await mcp.callTool({ name: 'job_results', arguments: { id: resumed.job.id } }));
      expect(outcome).toMatchObject({ total: rows, rejected: 0 });
      // Every row is in the sandbox once: none lost at the kill, none doubled by the resume.
      const emails = tableRows<{ email: string }>(join(dir, 'config', 'sandbox', 'state.db'), 'prospects')
        .map((p) => p.email)
        .filter((email) => email.startsWith('big'));
      expect([emails.length, new Set(emails).size]).toEqual([rows, rows]);
    },
  );

  it('keeps the key out of every answer, working against a service with it', { timeout: 60_000 }, async () => {
    const key = 'sk_mcp_secret_key_0123456789';
    const served = await startSandboxProcess(['--key', key], cleanEnv());
    try {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [binPath, 'mcp'],
        env: cleanEnv({ OUTREACH_CONFIG_DIR: tempDir(), OUTREACH_BASE_URL: served.baseUrl, OUTREACH_API_KEY: key }),
        cwd: tempDir(),
        stderr: 'pipe',
      });
      client = new Client({ name: 'outreach-test', version: '1.0.0' });
      await client.connect(transport);
      const answers = [];
      for (const name of ['auth_status', 'doctor', 'tasks_list', 'profiles_list'])
        answers.push(JSON.stringify(await client.callTool({ name, arguments: {} })));
      expect(answers.join('\n')).toContain('auth');
      for (const answer of answers) {
        expect(answer).not.toContain(key);
        expect(answer).not.toContain(key.slice(4, -4));
      }
    } finally {
      await served.stop();
    }
  });

  it('asks the user as well over stdio when the client can', { timeout: 60_000 }, async () => {
    const dir = tempDir('outreach-mcp-ask-');
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, '--sandbox', 'mcp'],
      env: cleanEnv({ OUTREACH_CONFIG_DIR: join(dir, 'config') }),
      cwd: dir,
      stderr: 'pipe',
    });
    client = new Client({ name: 'outreach-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'decline' };
    });
    await client.connect(transport);
    const first = structured(await client.callTool({ name: 'tasks_skip', arguments: { taskId: 'tk000001' } }));
    const declined = await client.callTool({
      name: 'tasks_skip',
      arguments: { taskId: 'tk000001', confirm: first.confirm },
    });
    expect(structured(declined)).toEqual({ exitCode: 2, error: 'error: the user declined; nothing was done' });
    expect(asked).toEqual(['An agent asks to run tasks skip on 1 record(s). Do it?']);
  });

  it('will not start in the home folder without --files-dir: every file there would be in reach', async () => {
    const home = tempDir('outreach-mcp-home-');
    const result = await runBin(['--sandbox', 'mcp'], {
      env: cleanEnv({ HOME: home, OUTREACH_CONFIG_DIR: join(home, 'config') }),
      cwd: home,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: outreach mcp started in .+: give --files-dir, the folder whose files tools may/,
    );
  });

  it('offers only the tools that change nothing with --read-only', { timeout: 60_000 }, async () => {
    const mcp = await connect(tempDir('outreach-mcp-ro-'), '--read-only');
    const { tools } = await mcp.listTools();
    expect(tools.length).toBeGreaterThan(20);
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).toEqual([]);
    expect(tools.map((t) => t.name)).not.toContain('tasks_bulk_skip');
  });
});
