import type { Command } from 'commander';
import { addVerb, type VerbInvoker } from '../../cli/verb.js';
import lists from './lists.js';
import show from './show.js';
import search from './search.js';
import add from './add.js';
import exportVerb from './export.js';
import blacklistDomains from './blacklist-domains.js';

export function register(group: Command, invoke: VerbInvoker): void {
  for (const verb of [lists, show, search, add, exportVerb, blacklistDomains]) addVerb(group, verb, invoke);
}
