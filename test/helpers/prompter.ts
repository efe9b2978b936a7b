// A Prompter that answers from a script, so prompt tests never type keys on a timer. It writes each question and
// answer to `log` (the test's stderr), as a terminal would show them; a refused answer shows its message and the
// next scripted answer is tried, like a person typing again.
import type { Writable } from 'node:stream';
import type { Choice, Prompter, Validate } from '../../src/prompter.js';

/** For search prompts the answer is what the user types; the first choice the source offers is taken. */
export type ScriptedAnswer = string | boolean;

export function scriptedPrompter(answers: ScriptedAnswer[], log: Writable): Prompter {
  const next = (message: string): ScriptedAnswer => {
    if (!answers.length) throw new Error(`no scripted answer for "${message}"`);
    return answers.shift()!;
  };
  const text = (
    message: string,
    validate: Validate | undefined,
    show: (answer: string) => string,
    fallback?: string,
  ) => {
    for (;;) {
      const raw = next(message);
      const answer = raw === '' && fallback !== undefined ? fallback : String(raw);
      log.write(`? ${message} ${show(answer)}\n`);
      const verdict = validate ? validate(answer) : true;
      if (verdict === true) return answer;
      log.write(`> ${verdict}\n`);
    }
  };
  const pick = <T extends string>(message: string, choices: Choice<T>[], answer: string): T => {
    const found = choices.find((c) => c.value === answer || c.name === answer);
    if (!found)
      throw new Error(`"${answer}" is not a choice of "${message}": ${choices.map((c) => c.value).join(', ')}`);
    log.write(`? ${message} ${found.name}\n`);
    return found.value;
  };
  return {
    input: async (q) => text(q.message, q.validate, (a) => a, q.default),
    password: async (q) => text(q.message, q.validate, (a) => '*'.repeat(a.length)),
    select: async (q) => {
      log.write(q.choices.map((c) => `  ${c.name}\n`).join(''));
      return pick(q.message, q.choices, String(next(q.message)));
    },
    search: async (q) => {
      const choices = q.source(String(next(q.message)) || undefined);
      if (!choices.length) throw new Error(`the search "${q.message}" offers nothing`);
      return pick(q.message, choices, choices[0]!.value);
    },
    confirm: async (q) => {
      const raw = next(q.message);
      const answer = typeof raw === 'boolean' ? raw : /^y/i.test(raw);
      log.write(`? ${q.message} ${answer ? 'yes' : 'no'}\n`);
      return answer;
    },
  };
}
