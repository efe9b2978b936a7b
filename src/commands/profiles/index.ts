import type { Command } from 'commander';
import { addVerb, type VerbInvoker } from '../../cli/verb.js';
import list from './list.js';
import use from './use.js';
import remove from './remove.js';

export function register(group: Command, invoke: VerbInvoker): void {
  addVerb(group, list, invoke);
  addVerb(group, use, invoke);
  addVerb(group, remove, invoke);
}
