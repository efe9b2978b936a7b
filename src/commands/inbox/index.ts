import type { Command } from 'commander';
import { addVerb, type VerbInvoker } from '../../cli/verb.js';
import categories from './categories.js';

export function register(group: Command, invoke: VerbInvoker): void {
  addVerb(group, categories, invoke);
}
