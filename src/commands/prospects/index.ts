import type { Command } from 'commander';
import { addVerb, type VerbInvoker } from '../../cli/verb.js';
import importVerb from './import.js';
import importStatus from './import-status.js';
import verify from './verify.js';
import { registerAttribute } from './attribute.js';

export function register(group: Command, invoke: VerbInvoker): void {
  addVerb(group, importVerb, invoke);
  addVerb(group, importStatus, invoke);
  addVerb(group, verify, invoke);
  registerAttribute(group, invoke);
}
