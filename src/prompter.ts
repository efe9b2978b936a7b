// Questions asked on a terminal. Commands take the Prompter from the Context, so tests answer from a script
// instead of typing keys on a timer; the real one is @inquirer/prompts, loaded only when a question is asked.
import type { Readable, Writable } from 'node:stream';
import { Interrupted } from './errors.js';
import { visible } from './visible-text.js';

export interface Choice<T extends string> {
  value: T;
  name: string;
}

/** A validator returns true, or the message to show before asking again. */
export type Validate = (value: string) => true | string;

export interface Prompter {
  input(question: { message: string; default?: string; validate?: Validate }): Promise<string>;
  /** Typed characters are shown masked. */
  password(question: { message: string; validate?: Validate }): Promise<string>;
  select<T extends string>(question: { message: string; choices: Choice<T>[] }): Promise<T>;
  /** Type to filter: `source` gives the choices for what has been typed so far. */
  search<T extends string>(question: {
    message: string;
    source: (term: string | undefined) => Choice<T>[];
  }): Promise<T>;
  confirm(question: { message: string; default?: boolean }): Promise<boolean>;
}

/** Ctrl-C at a prompt (inquirer's ExitPromptError) or an abort while asking is an interruption: exit 130. */
async function asking<T>(question: Promise<T>): Promise<T> {
  try {
    return await question;
  } catch (error) {
    const name = (error as Error | undefined)?.name;
    if (name === 'ExitPromptError' || name === 'AbortPromptError') throw new Interrupted('interrupted at a prompt');
    throw error;
  }
}

/** The streams are asked for only when a question is: creating process.stdin costs a start-up that never prompts. */
export function createInquirerPrompter(
  streams: () => { input: Readable; output: Writable },
  signal: AbortSignal,
): Prompter {
  const io = () => ({ ...streams(), signal });
  const prompts = () => import('@inquirer/prompts');
  // Questions and choices may hold text from the service (task ids, column names): shown, never obeyed.
  const shown = <Q extends { message: string }>(q: Q): Q => ({ ...q, message: visible(q.message, { lines: true }) });
  const choices = <T extends string>(list: Choice<T>[]) => list.map((c) => ({ ...c, name: visible(c.name) }));
  return {
    input: async (q) => asking((await prompts()).input(shown(q), io())),
    password: async (q) => asking((await prompts()).password({ ...shown(q), mask: '*' }, io())),
    select: async (q) => asking((await prompts()).select({ ...shown(q), choices: choices(q.choices) }, io())),
    search: async (q) =>
      asking((await prompts()).search({ message: shown(q).message, source: (term) => choices(q.source(term)) }, io())),
    confirm: async (q) => asking((await prompts()).confirm(shown(q), io())),
  };
}
