// The reference docs and help come from the command definitions: the committed docs are what they render now, every
// command shows 2-4 examples that really parse, and every environment variable the code reads is documented.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { commandDocs } from '../../src/cli/reference.js';
import { groups } from '../../src/commands/manifest.js';
import { renderDocs } from '../../src/cli/docs-render.js';
import { environmentHelp } from '../../src/cli/help-topics.js';
import { parse } from '../helpers/run.js';

const root = join(import.meta.dirname, '../..');

/** Words of a command line as a shell splits them: quotes group and are removed (the examples use no expansions). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + char;
  }
  if (word !== undefined) words.push(word);
  return words;
}

describe('reference docs', () => {
  it('docs/commands.md, man/outreach.1 and docs/agents.md are what `npm run docs` renders now', async () => {
    const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
    const { markdown, man, agents } = await renderDocs(groups, version);
    const stale = 'stale: run `npm run docs` and commit the result';
    expect(readFileSync(join(root, 'docs/commands.md'), 'utf8'), stale).toBe(markdown);
    expect(readFileSync(join(root, 'man/outreach.1'), 'utf8'), stale).toBe(man);
    expect(readFileSync(join(root, 'docs/agents.md'), 'utf8'), stale).toBe(agents);
  });

  it('every command has a one-line purpose and 2 to 4 examples, each of which parses', async () => {
    const docs = await commandDocs(groups);
    expect(docs.length).toBeGreaterThan(50);
    const counts = docs.map((c) => `${c.path}: ${c.examples.length}`);
    expect(counts.filter((line) => !/: [234]$/.test(line))).toEqual([]);
    // The entry's headline example is not repeated among the verb's own.
    expect(docs.filter((c) => new Set(c.examples).size !== c.examples.length).map((c) => c.path)).toEqual([]);
    for (const command of docs) {
      expect(command.summary, command.path).not.toContain('\n');
      for (const example of command.examples) {
        // The outreach part of a pipeline, without redirections.
        const own = example
          .split(/\s\|\s/)
          .find((part) => part.trimStart().startsWith('outreach '))!
          .replace(/\s\d?>>?.*$/, '')
          .replace(/\s<\s.*$/, '');
        const argv = shellWords(own).slice(1);
        const parsed = await parse(argv).catch((error: Error) => error);
        expect(parsed instanceof Error ? `${example}: ${parsed.message}` : example).toBe(example);
      }
    }
  });
});

describe('help environment', () => {
  it('lists every OUTREACH_* variable the code reads', () => {
    const names = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else for (const [name] of readFileSync(path, 'utf8').matchAll(/\bOUTREACH_[A-Z_]+/g)) names.add(name);
      }
    };
    walk(join(root, 'src'));
    names.delete('OUTREACH_VERSION'); // the build's version constant, not a variable
    expect([...names].filter((name) => !new RegExp(`^  ${name}[ =]`, 'm').test(environmentHelp))).toEqual([]);
    expect(names.size).toBeGreaterThanOrEqual(5);
  });
});
