// Every resource the sandbox serves, in the order their seed data is laid down (the account first; tasks after the
// sequences they belong to). A new resource is its folder and a line here.
import type { SandboxResource } from '../resource.js';
import { accountResource } from './account/index.js';
import { attachmentsResource } from './attachments/index.js';
import { dncResource } from './dnc/index.js';
import { domainsResource } from './domains/index.js';
import { fieldsResource } from './fields/index.js';
import { inboxResource } from './inbox/index.js';
import { peopleResource } from './people/index.js';
import { prospectsResource } from './prospects/index.js';
import { reportsResource } from './reports/index.js';
import { schedulesResource } from './schedules/index.js';
import { sequencesResource } from './sequences/index.js';
import { tasksResource } from './tasks/index.js';
import { webhooksResource } from './webhooks/index.js';

export const resources: SandboxResource[] = [
  accountResource,
  inboxResource,
  fieldsResource,
  schedulesResource,
  sequencesResource,
  prospectsResource,
  tasksResource,
  dncResource,
  domainsResource,
  attachmentsResource,
  peopleResource,
  webhooksResource,
  reportsResource,
];

export const allTables = resources.flatMap((r) => r.tables);
export const allRoutes = resources.flatMap((r) => r.routes);
