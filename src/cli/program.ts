// The commander root: global flags, the group list, help topics. Groups load lazily from the manifest.
import { Command, Option } from 'commander';
import type { Context } from '../context.js';
import { helpTopics } from './help-topics.js';
import { packageVersion } from './version.js';
import { attachVerb, registerVerbs, type GroupEntry, type VerbInvoker } from './verb.js';
import { optionSyntax } from './flags.js';
import { globalSwitches, globalValueFlags, valueOptions } from './globals.js';

/** The words of the command line that are not options or their values: group, verb, arguments. */
export function wordsIn(argv: string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...words, ...argv.slice(i + 1)];
    if (arg.startsWith('-')) {
      if (valueOptions.has(arg)) i++;
      continue;
    }
    words.push(arg);
  }
  return words;
}

/** The first word of the command line that is not an option: the group to load. */
export function groupNameIn(argv: string[]): string | undefined {
  return wordsIn(argv)[0];
}

export async function buildProgram(
  ctx: Context,
  argv: string[],
  invoke: VerbInvoker,
  groups: GroupEntry[],
): Promise<Command> {
  const program = new Command('outreach');
  program
    .description(
      'Drive an outreach-sequencing API from the command line: import prospects, manage do-not-contact lists, ' +
        'work through tasks in bulk, build schedules, and try it all safely against a local sandbox.',
    )
    .version(packageVersion(), '-V, --version', 'print the version number (also -v; more with `outreach version`)');
  for (const { flags, help } of globalSwitches) program.option(flags, help);
  for (const [key, spec] of Object.entries(globalValueFlags)) {
    const { flags, help } = optionSyntax(key, spec);
    program.addOption(new Option(flags, help));
  }
  program
    .showSuggestionAfterError(true)
    .helpCommand(false)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.stdout.write(text),
      writeErr: (text) => ctx.stderr.write(text),
    });

  program.addHelpText(
    'after',
    `\nExamples:\n${groups.map((g) => `  $ outreach ${g.example}`).join('\n')}\n  $ outreach --sandbox inbox categories\n` +
      '\nMore: outreach <group> --help, outreach help formats, outreach help environment, outreach help exit-codes,\n' +
      '  outreach help security\n' +
      `Reference: docs/commands.md, man outreach\n`,
  );

  // `outreach help tasks list` loads what `outreach tasks list` would.
  const words = wordsIn(argv);
  const [wanted, ...rest] = words[0] === 'help' ? words.slice(1) : words;
  for (const entry of groups) {
    // Subcommands inherit exitOverride and the output streams from the root.
    const group = program.command(entry.name).summary(entry.summary).description(entry.summary);
    if (entry.name !== wanted) continue;
    const spec = (await entry.load()).group;
    if (spec.self) await attachVerb(group, spec.self, invoke, spec.verbs);
    if (spec.verbs) await registerVerbs(group, spec.verbs, rest, invoke, { examples: !spec.self });
  }

  program
    .command('help [topic...]')
    .description(`help for a command, or a topic: ${Object.keys(helpTopics).join(', ')}`)
    .action((topic: string[]) => {
      const [first] = topic;
      const helpTopic = first ? helpTopics[first] : undefined;
      if (helpTopic) ctx.stdout.write(helpTopic());
      else if (!first) program.outputHelp();
      else {
        let target: Command | undefined = program;
        for (const name of topic) target = target?.commands.find((c) => c.name() === name);
        if (!target)
          program.error(
            `error: unknown help topic "${topic.join(' ')}"; topics: ${Object.keys(helpTopics).join(', ')}, or a command`,
            {
              exitCode: 2,
              code: 'outreach.unknownTopic',
            },
          );
        target!.outputHelp();
      }
    });

  return program;
}
