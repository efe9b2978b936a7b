import type { Command } from 'commander';
import { addVerb, type VerbInvoker } from '../../cli/verb.js';
import create from './create.js';
import list from './list.js';

export function register(group: Command, invoke: VerbInvoker): void {
  addVerb(group, create, invoke);
  addVerb(group, list, invoke);
}
