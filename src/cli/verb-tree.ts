// Every verb of the CLI with the words that name it (`sequences subsequence get`), loaded from the groups: what
// `outreach mcp` makes its tools from, and what the tests hold to the vocabulary.
import type { AnyVerb, GroupEntry, SubGroup, VerbEntry } from './verb.js';

export interface FoundVerb {
  /** The words after `outreach`: ['sequences', 'subsequence', 'get']. */
  path: string[];
  /** The one-line summary its group's index gives it. */
  summary: string;
  /** Its headline example, without the leading `outreach`. */
  example: string;
  verb: AnyVerb;
}

export async function everyVerb(groups: readonly GroupEntry[]): Promise<FoundVerb[]> {
  const found: FoundVerb[] = [];
  const add = async (path: string[], entry: VerbEntry | SubGroup): Promise<void> => {
    if ('verbs' in entry) for (const verb of entry.verbs) await add([...path, entry.name], verb);
    else
      found.push({
        path: [...path, entry.name],
        summary: entry.summary,
        example: entry.example,
        verb: (await entry.load()).default,
      });
  };
  for (const group of groups) {
    const spec = (await group.load()).group;
    if (spec.self)
      found.push({
        path: [group.name],
        summary: spec.self.summary,
        example: spec.self.example,
        verb: (await spec.self.load()).default,
      });
    for (const entry of spec.verbs ?? []) await add([group.name], entry);
  }
  return found;
}
