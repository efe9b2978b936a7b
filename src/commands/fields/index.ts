import type { Command } from 'commander';
import { addVerb, type VerbInvoker } from '../../cli/verb.js';
import list from './list.js';
import update from './update.js';

export function register(group: Command, invoke: VerbInvoker): void {
  addVerb(group, list, invoke);
  addVerb(group, update, invoke);
}
