import type { Command } from 'commander';
import { addVerb, type VerbInvoker } from '../../cli/verb.js';
import list from './list.js';
import get from './get.js';
import complete from './complete.js';
import bulkSkip from './bulk-skip.js';
import bulkStatus from './bulk-status.js';

export function register(group: Command, invoke: VerbInvoker): void {
  addVerb(group, list, invoke);
  addVerb(group, get, invoke);
  addVerb(group, complete, invoke);
  addVerb(group, bulkSkip, invoke);
  addVerb(group, bulkStatus, invoke);
}
