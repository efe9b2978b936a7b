import type { Command } from 'commander';
import { addVerb, type VerbInvoker } from '../../cli/verb.js';
import login from './login.js';
import status from './status.js';
import logout from './logout.js';

export function register(group: Command, invoke: VerbInvoker): void {
  addVerb(group, login, invoke);
  addVerb(group, status, invoke);
  addVerb(group, logout, invoke);
}
