// Questions asked on a terminal. Commands take the Prompter from the Context, so tests answer from a script
// instead of typing keys on a timer; the real one is @inquirer/prompts, loaded only when a question is asked.
import type { Readable, Writable } from 'node:stream';

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

/** The streams are asked for only when a question is: creating process.stdin costs a start-up that never prompts. */
export function createInquirerPrompter(
  streams: () => { input: Readable; output: Writable },
  signal: AbortSignal,
): Prompter {
  const io = () => ({ ...streams(), signal });
  const prompts = () => import('@inquirer/prompts');
  return {
    input: async (q) => (await prompts()).input(q, io()),
    password: async (q) => (await prompts()).password({ ...q, mask: '*' }, io()),
    select: async (q) => (await prompts()).select(q, io()),
    search: async (q) => (await prompts()).search({ message: q.message, source: (term) => q.source(term) }, io()),
    confirm: async (q) => (await prompts()).confirm(q, io()),
  };
}
