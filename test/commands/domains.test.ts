// outreach domains list / delete / revoke through the real CLI against an in-process sandbox and its state machine.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { state } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await startTestSandbox();
});
afterEach(() => sb.close());

const domains = (argv: string[], extra: Parameters<typeof run>[1] = {}) =>
  run(['domains', ...argv], { env: sb.env, ...extra });
const status = (id: string) => state(sb).domains.find((d) => d.id === id)!.status;
const revokes = () => sb.sandbox.requestLog.filter((r) => r.path.endsWith('/revoke'));

describe('domains list', () => {
  it('prints id, domain, status and mailboxes, sorted by name, and filters by status', async () => {
    const all = await domains(['list']);
    expect(all.code).toBe(0);
    expect(all.stdout).toBe(
      'dmExpird05\tlast-year.biz\texpired\t\n' +
        'dmProvis04\tnew-launch.co\tinProgress\tcarol@new-launch.co\n' +
        'dmDeleted2\told-brand.io\tdeleted\thello@old-brand.io\n' +
        'dmActive01\ttry-outreach.com\tactive\talice@try-outreach.com, bob@try-outreach.com\n' +
        'dmFailed03\ttypo-domian.net\tfailed\t\n',
    );
    const active = await domains(['list', '--status', 'active', '--order', 'desc', '--json']);
    expect(JSON.parse(active.stdout).map((d: { id: string }) => d.id)).toEqual(['dmActive01']);
    const searched = await domains(['list', '--search', 'BRAND']);
    expect(searched.stdout).toBe('dmDeleted2\told-brand.io\tdeleted\thello@old-brand.io\n');
  });

  it('--wait polls until nothing of the selection is provisioning, then prints the final table', async () => {
    const result = await domains(['list', '--search', 'launch', '--wait']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('dmProvis04\tnew-launch.co\tactive\tcarol@new-launch.co\n');
    expect(result.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(60_000);
  });

  it('--wait gives up at --wait-timeout, saying how to check later', async () => {
    const result = await domains(['--wait-timeout', '10', 'list', '--wait']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: domain provisioning is still running after 10s (--wait-timeout)\n' +
        'hint: It goes on at the service. Check later with: outreach domains list --wait\n',
    );
  });
});

describe('domains delete and revoke', () => {
  it('deletes an active domain, says how to undo it, and revoke brings it back', async () => {
    const deleted = await domains(['delete', 'dmActive01', '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe('dmActive01\tdeleted\n');
    expect(deleted.stderr).toBe('Undo while deleted: outreach domains revoke dmActive01\n');
    expect(status('dmActive01')).toBe('deleted');
    const revoked = await domains(['revoke', 'dmActive01']);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe('dmActive01\trevoked\n');
    expect(status('dmActive01')).toBe('active');
  });

  it('reports a refusal per domain and exits 3 when some of several failed', async () => {
    const result = await domains(['delete', 'dmActive01', 'dmFailed03', '--yes']);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe(
      'dmActive01\tdeleted\n' +
        'dmFailed03\tfailed\tDomain typo-domian.net is failed; only an active domain can be deleted (DELETE /v1/domain/dmFailed03: HTTP 400, code 1001)\n',
    );
  });

  it('refuses to revoke a domain that is not deleted, naming its state, before sending anything', async () => {
    for (const id of ['dmActive01', 'dmProvis04', 'dmFailed03', 'dmExpird05']) {
      const result = await domains(['revoke', id]);
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(
        `error: revoke only works on deleted domains: ${id} (${state(sb).domains.find((d) => d.id === id)!.name}) is ${status(id)}`,
      );
    }
    expect((await domains(['revoke', 'nope'])).stderr.split('\n')[0]).toBe('error: no domain nope');
    expect(revokes()).toEqual([]);
  });

  it('the sandbox refuses revoke from every state but deleted with 400 / 1001', async () => {
    for (const id of ['dmActive01', 'dmProvis04', 'dmFailed03', 'dmExpird05']) {
      const answer = await sb.request('POST', `/v1/domain/${id}/revoke`);
      expect({ id, status: answer.status, code: answer.body.code }).toEqual({ id, status: 400, code: 1001 });
    }
    expect((await sb.request('POST', '/v1/domain/dmDeleted2/revoke')).status).toBe(201);
  });

  it('asks before deleting, and refuses without --yes when it cannot ask', async () => {
    const refused = await domains(['delete', 'dmActive01']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe(
      'error: refusing to delete 1 domain(s) without --yes (no terminal to ask on)',
    );
    const declined = await domains(['delete', 'dmActive01'], { answers: [false], stdinIsTTY: true, stderrIsTTY: true });
    expect(declined.code).toBe(0);
    expect(status('dmActive01')).toBe('active');
  });
});
