// Every endpoint of the contract, for lookups by method and path (`outreach api` uses it for replay safety).
import type { Endpoint } from './endpoint.js';
import { inboxEndpoints } from './inbox.js';
import { fieldsEndpoints } from './fields.js';
import { prospectsEndpoints } from './prospects.js';
import { tasksEndpoints } from './tasks.js';
import { dncEndpoints } from './dnc.js';
import { schedulesEndpoints } from './schedules.js';
import { sequencesEndpoints } from './sequences.js';

export const allEndpoints: Endpoint[] = [
  ...Object.values(inboxEndpoints),
  ...Object.values(fieldsEndpoints),
  ...Object.values(prospectsEndpoints),
  ...Object.values(tasksEndpoints),
  ...Object.values(dncEndpoints),
  ...Object.values(schedulesEndpoints),
  ...Object.values(sequencesEndpoints),
];

export function findEndpoint(method: string, path: string): Endpoint | undefined {
  const clean = path.split('?')[0]!;
  return allEndpoints.find(
    (e) => e.method === method && new RegExp(`^${e.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(clean),
  );
}
