import { inboxEndpoints } from '../../api/contract/inbox.js';
import { route, type Route } from '../route.js';

export const inboxRoutes: Route[] = [
  route(inboxEndpoints.listCategories, (_req, store) => ({
    status: 200,
    body: { message: 'Categories fetched successfully', payload: store.state.inboxCategories },
  })),
];
