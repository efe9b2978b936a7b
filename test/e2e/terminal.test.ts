// What a person at a terminal sees: tables fitted to its width (a pseudo-terminal of 80 and 200 columns).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { tempDir } from '../helpers/context.js';
import { cleanEnv, runBin, runInTerminal } from '../helpers/spawn.js';

const terminalEnv = () => cleanEnv({ OUTREACH_CONFIG_DIR: tempDir(), NO_COLOR: '1' });
const search = ['--sandbox', 'people', 'search', '--title', 'engineer', '--quiet'];

describe('tables on a terminal', () => {
  it('fit 80 columns: long columns end in an ellipsis, ids and names stay whole', async () => {
    const { code, output } = await runInTerminal(search, { env: terminalEnv(), columns: 80 });
    expect(code).toBe(0);
    const lines = output.trimEnd().split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'ID      NAME                  TITLE            COMPANY          LOCATION',
      '700018  Sara Hansen           Engineering Ma…  Nimbus Cloud     Berlin, Germany',
      '700025  José Nowak            Engineering Ma…  Vertex AI        Paris, France',
      '700032  Viktor Taylor         VP of Engineer…  Blue Logistics   São Paulo, Braz…',
    ]);
    expect(output).toContain('700054  Ibrahim García López  Software Engin…');
    expect(Math.max(...lines.map((line) => stringWidth(line)))).toBeLessThanOrEqual(80);
  });

  it('show every value whole at 200 columns, and with --wide at any width', async () => {
    const wide = await runInTerminal(search, { env: terminalEnv(), columns: 200 });
    expect(wide.output.split('\n').slice(0, 2)).toEqual([
      'ID      NAME                  TITLE                     COMPANY           LOCATION',
      '700018  Sara Hansen           Engineering Manager       Nimbus Cloud      Berlin, Germany',
    ]);
    expect(wide.output).not.toContain('…');
    const forced = await runInTerminal([...search, '--wide'], { env: terminalEnv(), columns: 80 });
    expect(forced.output).toBe(wide.output);
  });

  it('give a schedule one line a day, wrapped under its column when the terminal is narrow', async () => {
    const { output } = await runInTerminal(['--sandbox', 'schedules', 'list'], { env: terminalEnv(), columns: 80 });
    expect(output.split('\n').slice(0, 4)).toEqual([
      'ID     NAME                       TIMEZONE          DEFAULT  WINDOWS',
      '58964  Business hours (New York)  America/New_York  yes      Mon 09:00-12:00,',
      '                                                               13:00-17:00',
      '                                                             Tue 09:00-12:00,',
    ]);
  });

  it('draw a long list a block of rows at a time: the header once, the first rows without waiting for the last', async () => {
    const env = terminalEnv();
    const cwd = tempDir();
    const short = Array.from({ length: 1000 }, (_, i) => `d${i}.example`);
    const long = Array.from({ length: 200 }, (_, i) => `a-much-longer-domain-name-${i}.example`);
    writeFileSync(join(cwd, 'values.csv'), `value\n${[...short, ...long].join('\n')}\n`);
    expect((await runBin(['--sandbox', 'dnc', 'add', 'dncCustmr2', '--file', 'values.csv'], { env, cwd })).code).toBe(
      0,
    );
    const { code, output } = await runInTerminal(['--sandbox', 'dnc', 'show', 'dncCustmr2', '--all'], {
      env,
      cwd,
      columns: 100,
    });
    expect(code).toBe(0);
    const lines = output.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + 2 + 1200); // the list's two values, then the 1,200 added
    expect(lines.filter((line) => line.startsWith('VALUE'))).toHaveLength(1);
    // The first thousand rows are drawn at their own widths, before the longer values after them were read.
    expect(lines[1]).toMatch(/^acme\.com {9}domain {2}/);
    expect(lines[1000]).toMatch(/^d997\.example {5}domain {2}/);
    expect(lines.at(-1)).toMatch(/^a-much-longer-domain-name-199\.example {2}domain {2}/);
  });

  it('leave piped output whole: one TSV line a row, whatever the width', async () => {
    const piped = await runBin(search, { env: terminalEnv() });
    expect(piped.stdout.split('\n')[0]).toBe(
      '700018\tSara\tHansen\tEngineering Manager\tNimbus Cloud\thttps://www.nimbuscloud.example\t' +
        'https://www.linkedin.com/in/sara-hansen-f04y\tEngineering\tBerlin\tBerlin\tGermany\tno',
    );
  });
});
