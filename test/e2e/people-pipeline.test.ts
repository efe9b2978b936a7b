// The whole lead pipeline as a user types it, each command a process of its own, against `outreach sandbox start`:
// people search | enrich contacts | prospects import. Afterwards the sandbox's saved state shows that every person
// found is a prospect with the email the enrichment revealed, or is in the file that says why not.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { binPath, cleanEnv, runBin, startSandboxProcess } from '../helpers/spawn.js';
import { openSandboxDb } from '../../src/sandbox/open-state.js';
import { enrichmentsTable } from '../../src/sandbox/resources/people/index.js';
import { prospectsTable } from '../../src/sandbox/resources/prospects/tables.js';

const rows = (text: string) =>
  text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','));

describe('people search | enrich contacts | prospects import', () => {
  it('turns every person found into a prospect with the revealed email, or a line saying why not', async () => {
    const dir = tempDir();
    const statePath = join(dir, 'state.db');
    const sandbox = await startSandboxProcess(
      ['--state', statePath, '--enrichment-seconds', '0', '--key', 'sk_pipeline_test_1'],
      cleanEnv({ OUTREACH_CONFIG_DIR: dir }),
    );
    const env = cleanEnv({
      OUTREACH_CONFIG_DIR: dir,
      OUTREACH_BASE_URL: sandbox.baseUrl,
      OUTREACH_API_KEY: sandbox.key,
    });
    try {
      const outreach = `"${process.execPath}" "${binPath}"`;
      const pipeline =
        `set -o pipefail; ${outreach} people search --title 'Head of Sales' --location Germany --all --csv | ` +
        `${outreach} enrich contacts --file - --yes --wait --csv | ${outreach} prospects import - --wait`;
      const child = spawn('bash', ['-c', pipeline], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const [code] = await once(child, 'close');
      // Exit 3: enrich found no email for some people, and said so.
      expect({ code, stderr: stderr.replace(/enrich-\d{8}-\d{6}/, 'enrich-TIME') }).toMatchObject({ code: 3 });
      expect(stderr).toMatch(/Imported stdin: (\d+) rows read, \1 sent in 1 chunk, 0 rejected, \1 succeeded/);

      const found = await runBin(
        ['people', 'search', '--title', 'Head of Sales', '--location', 'Germany', '--all', '--csv'],
        {
          env,
        },
      );
      const people = rows(found.stdout);
      expect(people.length).toBeGreaterThan(25);
      const rejectsFile = /not enriched: (\S+)\.\n/.exec(stderr)![1]!;
      const notEnriched = new Map(rows(readFileSync(rejectsFile, 'utf8')).map((r) => [r[0], r.at(-1)]));

      await sandbox.stop();
      const stored = openSandboxDb(statePath);
      const revealed = new Map(
        stored
          .table(enrichmentsTable)
          .all()
          .flatMap((e) => e.people)
          .map((p) => [String(p.personId), p.email] as const),
      );
      const prospects = new Map(
        stored
          .table(prospectsTable)
          .all()
          .map((p) => [p.email, p]),
      );
      stored.close();
      for (const [personId, firstName] of people.map((p) => [p[0]!, p[1]!])) {
        const email = revealed.get(personId);
        if (email) {
          expect(prospects.get(email)?.values.fFirstNm, `person ${personId}`).toBe(firstName);
        } else {
          expect(notEnriched.get(personId), `person ${personId}`).toBe('no email found');
        }
      }
      expect(notEnriched.size).toBeGreaterThan(0);
    } finally {
      if (sandbox.child.exitCode === null) await sandbox.stop();
    }
  });
});
