// Every route the sandbox serves, one module per resource.
import type { Route } from '../route.js';
import { inboxRoutes } from './inbox.js';

export const allRoutes: Route[] = [...inboxRoutes];
