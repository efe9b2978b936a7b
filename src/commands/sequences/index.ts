import type { Command } from 'commander';
import { addVerb, type VerbInvoker } from '../../cli/verb.js';
import steps from './steps.js';
import subsequenceUpdate from './subsequence-update.js';
import addContacts from './add-contacts.js';
import { pause, resume } from './status.js';
import testEmail from './test-email.js';

export function register(group: Command, invoke: VerbInvoker): void {
  addVerb(group, steps, invoke);
  const subsequence = group.command('subsequence').summary('Change subsequences').description('Change subsequences');
  addVerb(subsequence, subsequenceUpdate, invoke);
  for (const verb of [addContacts, pause, resume, testEmail]) addVerb(group, verb, invoke);
}
