// Parse tests: argv -> options, or a usage error with exit code 2.
import { describe, expect, it } from 'vitest';
import { parse, run, usageHint } from '../helpers/run.js';
import { groupNameIn } from '../../src/cli/program.js';
import { registerVerbs } from '../../src/cli/verb.js';

describe('argv parsing', () => {
  it('finds the group past global flags and their values', () => {
    expect(groupNameIn(['-p', 'staging', '--json', 'inbox', 'categories'])).toBe('inbox');
    expect(groupNameIn(['--timeout', '5', 'api', 'GET', '/x'])).toBe('api');
    expect(groupNameIn(['--json'])).toBeUndefined();
  });

  it('parses sandbox start flags into typed options', async () => {
    const parsed = await parse([
      'sandbox',
      'start',
      '--port',
      '0',
      '--fault-rate',
      '0.25',
      '--fault-seed',
      '9',
      '--fault-kinds',
      'drop,delay',
      '--latency',
      '50',
      '--provision-seconds',
      '2',
    ]);
    expect(parsed.verb).toBe('start');
    expect(parsed.options).toEqual({
      args: [],
      port: 0,
      host: '127.0.0.1',
      faultRate: 0.25,
      faultSeed: 9,
      faultKinds: ['drop', 'delay'],
      latency: 50,
      provisionSeconds: 2,
      enrichmentSeconds: 3,
    });
  });

  it('parses api pairs and upper-cases the method', async () => {
    const parsed = await parse(['api', 'get', '/v1/dnc/x', '-F', 'page=2', '-f', 'search=a=b']);
    expect(parsed.options).toEqual({ args: ['GET', '/v1/dnc/x'], field: ['page=2'], rawField: ['search=a=b'] });
  });

  it('names the flag in a validation error and exits 2', async () => {
    const result = await run(['sandbox', 'start', '--fault-rate', '2']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: --fault-rate must be a number from 0 to 1, not "2"\nhint: See `outreach sandbox start --help`.\n',
    );
    expect(result.stdout).toBe('');
  });

  it('names a bad argument', async () => {
    const result = await run(['api', 'FETCH', '/v1/x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: <method> must be one of GET, POST, PATCH, PUT, DELETE, not "FETCH"');
  });

  it('suggests the closest command for a typo and exits 2', async () => {
    const result = await run(['inbox', 'categoriez']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "error: unknown command 'categoriez'\n(Did you mean categories?)\n" +
        'hint: add --help to the command to see what it takes.\n',
    );
  });

  it('rejects an unknown flag with exit 2', async () => {
    const result = await run(['inbox', 'categories', '--jsn']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error: unknown option '--jsn'\n(Did you mean --json?)");
    expect(result.stderr).toContain('hint: add --help to the command to see what it takes.\n');
  });

  it('a file flag on a command that takes its file as an argument says so', async () => {
    const result = await run(['prospects', 'import', '--file', 'leads.csv']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'hint: this command has no such flag: a file is its argument where it reads one (prospects import FILE, ' +
        'dnc sync FILE); add --help to see what it takes.\n',
    );
  });

  it('refuses a bad --timeout before sending anything', async () => {
    const result = await run(['--timeout', 'soon', 'inbox', 'categories'], {
      env: { OUTREACH_API_KEY: 'k', OUTREACH_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --timeout must be a positive number of seconds, not "soon"\n' + usageHint);
  });
});

describe('help', () => {
  it('documents every exit code', async () => {
    const result = await run(['help', 'exit-codes']);
    expect(result.code).toBe(0);
    for (const code of ['0 ', '1 ', '2 ', '3 ', '4 ', '5 ', '130']) expect(result.stdout).toContain(`  ${code}`);
    // 3 is also what a check that found problems exits with, though it changed nothing; 2 a refusal without --yes.
    expect(result.stdout).toContain('Also a check that found problems, though it changed nothing: `domains check`');
    expect(result.stdout).toContain('or an action that needs --yes where no terminal can ask. Nothing was changed.');
  });

  it('prints the environment topic, and refuses an unknown topic with exit 2', async () => {
    const environment = await run(['help', 'environment']);
    expect(environment.stdout).toContain('  CI                    never prompt (as --no-input)\n');
    expect(environment.stdout).toContain('$XDG_CONFIG_HOME/outreach');
    const unknown = await run(['help', 'nosuch']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'error: unknown help topic "nosuch"; topics: environment, formats, exit-codes, security, or a command\n' +
        'hint: add --help to the command to see what it takes.\n',
    );
  });

  it('shows examples in the help of every command', async () => {
    for (const argv of [
      ['inbox', 'categories'],
      ['auth', 'login'],
      ['auth', 'status'],
      ['auth', 'logout'],
      ['profiles', 'list'],
      ['profiles', 'use'],
      ['profiles', 'remove'],
      ['api'],
      ['sandbox', 'start'],
      ['sandbox', 'reset'],
    ]) {
      const result = await run([...argv, '--help']);
      expect(result.code, argv.join(' ')).toBe(0);
      expect(result.stdout, argv.join(' ')).toMatch(/Examples:\n  \$ outreach /);
    }
  });

  it('writes every example as a shell line a user can paste: outreach commands begin with outreach, once', async () => {
    const { groups } = await import('../../src/commands/manifest.js');
    const lines: string[] = [];
    for (const entry of groups) {
      const spec = (await entry.load()).group;
      const verbs: string[][] = [
        ...(spec.self ? [[]] : []),
        ...(spec.verbs ?? []).flatMap((v) => ('verbs' in v ? v.verbs.map((sub) => [v.name, sub.name]) : [[v.name]])),
      ];
      for (const verb of verbs) {
        const help = await run([entry.name, ...verb, '--help']);
        lines.push(...help.stdout.split('\n').filter((line) => line.startsWith('  $ ')));
      }
    }
    expect(lines.length).toBeGreaterThan(50);
    expect(lines.filter((line) => !line.startsWith('  $ outreach ') && !/^  \$ \w+ .*\| outreach /.test(line))).toEqual(
      [],
    );
    expect(lines.filter((line) => /^  \$ outreach (printenv|cat|cut|echo) /.test(line))).toEqual([]);
    expect(lines).toContain('  $ printenv SH_KEY | outreach auth login --with-key -p agency');
  });

  it('lists the groups with examples at the top level', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  inbox ');
    expect(result.stdout).toContain('$ outreach --sandbox inbox categories');
  });
});

describe('help of every command', () => {
  it('has one Examples block, for every group and every command in it', async () => {
    const { groups } = await import('../../src/commands/manifest.js');
    const { Command } = await import('commander');
    for (const entry of groups) {
      const group = new Command(entry.name);
      const spec = (await entry.load()).group;
      if (spec.verbs) await registerVerbs(group, spec.verbs, [], async () => undefined);
      const all = (cmd: InstanceType<typeof Command>, path: string[]): string[][] => [
        path,
        ...cmd.commands.flatMap((c) => all(c, [...path, c.name()])),
      ];
      for (const path of all(group, [entry.name])) {
        const result = await run([...path, '--help']);
        expect(result.code, path.join(' ')).toBe(0);
        expect(result.stdout, path.join(' ')).toMatch(/Examples:\n  \$ outreach /);
        expect(result.stdout.split('Examples:').length, path.join(' ')).toBe(2);
      }
    }
  });

  it('gives a verb that is a group too its subcommands examples in its own block: mcp and mcp audit', async () => {
    const result = await run(['mcp', '--help']);
    expect(result.stdout).toContain(
      'Examples:\n  $ outreach mcp --sandbox\n  $ outreach mcp --read-only\n  $ outreach -p staging mcp\n' +
        '  $ outreach mcp audit --limit 20\n\nGlobal flags:',
    );
  });

  it.each([
    [['tasks', 'list', '--all', '--page', '2'], 'error: --all and --page cannot be used together\n'],
    [
      ['prospects', 'import', 'x.csv', '--resume', '--restart'],
      'error: --resume and --restart cannot be used together\n',
    ],
    [['prospects', 'import', 'x.csv', '--sync', '--tags', 'a'], 'error: --sync and --tags cannot be used together\n'],
    [['sequences', 'test-email', 'sq1', '--to', 'a@b.co'], 'error: --from-account is required\n'],
    [['prospects', 'attribute', 'set', 'p1', '--field', 'oops'], 'error: --field takes fieldId=value, not "oops"\n'],
    [['dnc', 'show', 'l1', '--type', 'phone'], 'error: --type must be one of all, email, domain, not "phone"\n'],
  ])('checks the rules between flags and required flags before anything runs: %j', async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr.split('hint:')[0]).toBe(message);
  });

  it('derives each option, its value name, allowed values and default from one declaration', async () => {
    const help = await run(['tasks', 'list', '--help']);
    expect(help.stdout).toMatch(/--status <status> +task status \(one of: upcoming, dueToday, completed,/);
    const dnc = await run(['dnc', 'add', '--help']);
    expect(dnc.stdout).toMatch(/--chunk-size <n> +items per request \(default 5000\)/);
    const parsed = await parse(['dnc', 'add', 'l1', 'a.com', '--chunk-size', '10']);
    expect(parsed.options).toEqual({
      args: ['l1', ['a.com']],
      chunkSize: 10,
      concurrency: 4,
      resume: false,
      restart: false,
      keepJournal: false,
    });
  });
});
