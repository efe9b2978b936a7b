// What an agent reads to "import this 50,000-row file, then skip the overdue call tasks of sequence sqOnbrd1": the
// bytes of every answer it needs through `outreach mcp`, against the same through the CLI with --json (the baseline:
// what an agent driving the CLI in a shell reads). Both run against a fresh --sandbox of their own. The tool list an
// MCP client reads once per session is reported apart. Bytes, not tokens: a tokenizer's count follows them.
// Usage: npm run bench:mcp (BENCH_SHOW=1 prints each MCP answer)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { benchEnv, bin } from './lib.mjs';

const rows = 50_000;
const sequence = 'sqOnbrd1';
const skip = { whereStatus: 'overdue', whereType: 'call', whereSequence: sequence };

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'outreach-bench-mcp-'));
  const file = join(dir, 'leads.csv');
  writeFileSync(
    file,
    'Email,First Name,Company\n' +
      Array.from({ length: rows }, (_, i) => `lead${i}@bench.example,Lead ${i},Company ${i % 500}`).join('\n') +
      '\n',
  );
  return { dir, file, env: benchEnv({ OUTREACH_CONFIG_DIR: join(dir, 'config') }) };
}

/** The CLI as an agent in a shell would drive it: each command with --json, its stdout and stderr read. */
function throughCli() {
  const { dir, file, env } = workspace();
  const commands = [
    ['prospects', 'import', file, '--wait'],
    [
      'tasks',
      'bulk-skip',
      '--where-status',
      'overdue',
      '--where-type',
      'call',
      '--where-sequence',
      sequence,
      '--dry-run',
    ],
    ['tasks', 'bulk-skip', '--where-status', 'overdue', '--where-type', 'call', '--where-sequence', sequence, '--yes'],
  ];
  let bytes = 0;
  for (const argv of commands) {
    const run = spawnSync(process.execPath, [bin, '--sandbox', '--json', ...argv], { env, cwd: dir, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${argv.join(' ')}: exit ${run.status}\n${run.stderr}`);
    bytes += Buffer.byteLength(run.stdout) + Buffer.byteLength(run.stderr);
  }
  rmSync(dir, { recursive: true, force: true });
  return { calls: commands.length, bytes };
}

async function throughMcp() {
  const { dir, file, env } = workspace();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, '--sandbox', 'mcp'],
    env,
    cwd: dir,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const listed = Buffer.byteLength(JSON.stringify((await client.listTools()).tools));
  let bytes = 0;
  let calls = 0;
  const call = async (name, args) => {
    const answer = await client.callTool({ name, arguments: args });
    calls++;
    // What the agent reads: the text content (the structured content is the same data).
    bytes += Buffer.byteLength(answer.content.map((c) => c.text ?? c.uri ?? '').join('\n'));
    if (process.env.BENCH_SHOW) console.log(name, JSON.stringify(answer.content));
    if (answer.isError) throw new Error(`${name}: ${JSON.stringify(answer.structuredContent)}`);
    return answer.structuredContent;
  };
  // job_status waits for the end and answers with the outcome: job_results is for reading it again later.
  const followed = (started) => call('job_status', { id: started.job.id, waitSeconds: 600 });
  await followed(await call('prospects_import', { file, wait: true }));
  const preview = await call('tasks_bulk_skip', skip);
  await followed(await call('tasks_bulk_skip', { ...skip, confirm: preview.confirm }));
  await client.close();
  rmSync(dir, { recursive: true, force: true });
  return { calls, bytes, listed };
}

const cli = throughCli();
const mcp = await throughMcp();
console.log(`import ${rows.toLocaleString('en')} rows, then skip the overdue call tasks of ${sequence}`);
console.log(`CLI with --json:  ${cli.calls} commands, ${cli.bytes.toLocaleString('en')} bytes read`);
console.log(
  `outreach mcp:     ${mcp.calls} calls, ${mcp.bytes.toLocaleString('en')} bytes of answers (${(mcp.bytes / cli.bytes).toFixed(2)}x)`,
);
console.log(`                  + the tool list, once a session: ${mcp.listed.toLocaleString('en')} bytes`);
