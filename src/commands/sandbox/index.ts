import type { Command } from 'commander';
import { addVerb, type VerbInvoker } from '../../cli/verb.js';
import start from './start.js';
import reset from './reset.js';

export function register(group: Command, invoke: VerbInvoker): void {
  addVerb(group, start, invoke);
  addVerb(group, reset, invoke);
}
