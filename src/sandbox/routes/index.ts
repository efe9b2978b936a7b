// Every route the sandbox serves, one module per resource.
import type { Route } from '../route.js';
import { inboxRoutes } from './inbox.js';
import { fieldsRoutes } from './fields.js';
import { prospectsRoutes } from './prospects.js';
import { tasksRoutes } from './tasks.js';
import { dncRoutes } from './dnc.js';
import { schedulesRoutes } from './schedules.js';
import { sequencesRoutes } from './sequences.js';
import { domainsRoutes } from './domains.js';
import { uploadsRoutes } from './uploads.js';
import { peopleRoutes } from './people.js';
import { webhooksRoutes } from './webhooks.js';

export const allRoutes: Route[] = [
  ...inboxRoutes,
  ...fieldsRoutes,
  ...prospectsRoutes,
  ...tasksRoutes,
  ...dncRoutes,
  ...schedulesRoutes,
  ...sequencesRoutes,
  ...domainsRoutes,
  ...uploadsRoutes,
  ...peopleRoutes,
  ...webhooksRoutes,
];
