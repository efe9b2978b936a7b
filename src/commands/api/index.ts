import type { Command } from 'commander';
import { attachVerb, type VerbInvoker } from '../../cli/verb.js';
import request from './request.js';

export function register(group: Command, invoke: VerbInvoker): void {
  attachVerb(group, request, invoke);
}
