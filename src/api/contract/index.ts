// Every endpoint of the contract, by resource: for lookups by method and path (`outreach api` uses it for replay
// safety) and for the coverage test that every endpoint has a sandbox route and a command.
import type { Endpoint } from './endpoint.js';
import { attachmentsEndpoints } from './attachments.js';
import { dncEndpoints } from './dnc.js';
import { domainsEndpoints } from './domains.js';
import { fieldsEndpoints } from './fields.js';
import { inboxEndpoints } from './inbox.js';
import { peopleEndpoints } from './people.js';
import { prospectsEndpoints } from './prospects.js';
import { schedulesEndpoints } from './schedules.js';
import { sequencesEndpoints } from './sequences.js';
import { tasksEndpoints } from './tasks.js';
import { webhooksEndpoints } from './webhooks.js';

export const contract: Record<string, Record<string, Endpoint>> = {
  attachmentsEndpoints,
  dncEndpoints,
  domainsEndpoints,
  fieldsEndpoints,
  inboxEndpoints,
  peopleEndpoints,
  prospectsEndpoints,
  schedulesEndpoints,
  sequencesEndpoints,
  tasksEndpoints,
  webhooksEndpoints,
};

export const allEndpoints: Endpoint[] = Object.values(contract).flatMap((group) => Object.values(group));

export function findEndpoint(method: string, path: string): Endpoint | undefined {
  const clean = path.split('?')[0]!;
  return allEndpoints.find(
    (e) => e.method === method && new RegExp(`^${e.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(clean),
  );
}
