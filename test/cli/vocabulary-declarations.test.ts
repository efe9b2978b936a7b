// The vocabulary of docs/architecture.md, checked over every verb's declaration: one flag name per idea, one bound
// for a page, sort order in any case, --yes with -y, parent ids before their children; and the earlier names kept as
// hidden aliases that mean what the new ones mean.
import { describe, expect, it } from 'vitest';
import { flagName, type FlagSpec } from '../../src/cli/flags.js';
import { parse, run } from '../helpers/run.js';
import { everyVerb, flagsOf } from '../helpers/verbs.js';

const verbs = await everyVerb();
const every = verbs.flatMap(({ path, verb }) =>
  flagsOf(verb).map(([key, spec]) => ({ verb: path.join(' '), key, spec: spec as FlagSpec<unknown> })),
);

/** Names an idea had in some command before it had one name: the name each idea has now. */
const oneNamePerIdea: Record<string, string> = {
  fromFile: 'file',
  from: 'file',
  input: 'file',
  max: 'limit',
  maxResults: 'limit',
  watch: 'wait',
  force: 'yes',
  perPage: 'pageSize',
  sort: 'order',
  sortOrder: 'order',
  printFilters: 'dryRun',
};

describe('one vocabulary over every declaration', () => {
  it('no flag goes by a name the vocabulary gave another word', () => {
    const strays = every.filter(({ key }) => key in oneNamePerIdea).map(({ verb, key }) => `${verb} ${flagName(key)}`);
    expect(strays).toEqual([]);
  });

  it('a page size is a whole number from 1 to 100; a limit at least 1', () => {
    const pageSizes = every.filter(({ key }) => key === 'pageSize');
    expect(pageSizes.length).toBeGreaterThan(3);
    for (const { verb, spec } of pageSizes)
      expect({ verb, range: spec.range }).toEqual({ verb, range: { min: 1, max: 100 } });
    for (const { verb, spec } of every.filter(({ key }) => key === 'limit'))
      expect({ verb, min: spec.range?.min }).toEqual({ verb, min: 1 });
  });

  it('sort order is asc or desc in any case', () => {
    const orders = every.filter(({ key }) => key === 'order');
    expect(orders.map(({ verb }) => verb).sort()).toEqual(['domains list', 'tasks list']);
    for (const { spec } of orders) {
      expect(spec.choices).toEqual(['asc', 'desc']);
      expect(['DESC', 'Asc'].map((raw) => spec.parse(raw))).toEqual(['desc', 'asc']);
    }
  });

  it('--yes is a switch with -y, --dry-run and --keep-journal are switches, --wait a switch or --wait/--no-wait', () => {
    const kinds = (key: string) =>
      every.filter((f) => f.key === key).map(({ verb, spec }) => [verb, spec.kind, spec.short]);
    expect(kinds('yes').every(([, kind, short]) => kind === 'bool' && short === '-y')).toBe(true);
    expect(kinds('yes').length).toBeGreaterThanOrEqual(5);
    expect(kinds('dryRun').every(([, kind]) => kind === 'bool')).toBe(true);
    expect(
      kinds('keepJournal')
        .map(([verb]) => verb)
        .sort(),
    ).toEqual(['dnc add', 'dnc sync', 'prospects import', 'sequences import', 'tasks bulk-skip', 'tasks bulk-snooze']);
    expect(kinds('wait').every(([, kind]) => kind === 'bool' || kind === 'negatable')).toBe(true);
  });

  it('a parent id comes before its child in the arguments', () => {
    for (const { path, verb } of verbs) {
      const names = ((verb.args ?? []) as Array<{ name: string }>).map((a) => a.name);
      if (names.includes('sequenceId'))
        expect({ verb: path.join(' '), first: names[0] }).toEqual({ verb: path.join(' '), first: 'sequenceId' });
    }
  });
});

describe('earlier names still work, unlisted', () => {
  it.each([
    [['schedules', 'create', '--from-file', 'x.json'], 'file', 'x.json'],
    [['domains', 'buy', '--from-file', 'x.yaml'], 'file', 'x.yaml'],
    [['webhooks', 'create', '--from-file', 'x.yaml'], 'file', 'x.yaml'],
    [['enrich', 'contacts', '--from', 'x.csv'], 'file', 'x.csv'],
    [['api', 'POST', '/v1/x', '--input', 'x.json'], 'file', 'x.json'],
    [['people', 'search', '--max', '5'], 'limit', 5],
    [['domains', 'list', '--watch'], 'wait', true],
    [['dnc', 'export', 'dncGlobal1', '--raw'], 'raw', true],
    [['schedules', 'create', '--tz', 'UTC'], 'timezone', 'UTC'],
    [['people', 'search', '--print-filters'], 'dryRun', true],
  ])('%j', async (argv, key, value) => {
    expect(((await parse(argv)).options as Record<string, unknown>)[key]).toEqual(value);
    const help = await run([...argv.slice(0, argv[0] === 'api' ? 1 : 2), '--help']);
    expect(help.stdout).not.toContain(argv.find((word) => word.startsWith('--'))!.concat(' '));
  });

  it('the old and the new name together are refused as one flag given twice', async () => {
    const result = await run(['people', 'search', '--max', '5', '--limit', '6']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('error: --limit and --max are the same flag: give it once');
  });
});
