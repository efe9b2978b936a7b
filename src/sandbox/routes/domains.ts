// Domains and their state machine (spec.md "States and transitions / Domain"): a purchase creates domains in
// inProgress, which become active once the provisioning delay has passed (`sandbox start --provision-seconds`);
// DELETE moves active to deleted; revoke moves deleted back to active. Anything else is refused with 400 / 1001.
import { domainsEndpoints } from '../../api/contract/domains.js';
import type { DomainRecord } from '../model.js';
import { route, type Route } from '../route.js';
import { SandboxError } from '../sandbox-error.js';
import type { Store } from '../store.js';

/** Domains whose provisioning time has come are active from then on. */
function settle(store: Store): DomainRecord[] {
  for (const domain of store.state.domains) {
    if (domain.status === 'inProgress' && domain.activatesAt !== undefined && store.now() >= domain.activatesAt) {
      domain.status = 'active';
      delete domain.activatesAt;
    }
  }
  return store.state.domains;
}

function domainById(store: Store, id: string): DomainRecord {
  const domain = settle(store).find((d) => d.id === id);
  if (!domain) throw new SandboxError(400, 1001, `Invalid domain id: ${id}`);
  return domain;
}

/** Moves a domain from one state to the next; a domain in any other state is refused with 400 / 1001. */
function transition(store: Store, id: string, from: DomainRecord['status'], to: DomainRecord['status'], verb: string) {
  const domain = domainById(store, id);
  if (domain.status !== from)
    throw new SandboxError(
      400,
      1001,
      `Domain ${domain.name} is ${domain.status}; only ${from === 'active' ? 'an' : 'a'} ${from} domain can be ${verb}`,
    );
  domain.status = to;
}

const shown = ({ activatesAt: _, ...domain }: DomainRecord) => domain;

export const domainsRoutes: Route[] = [
  route(domainsEndpoints.list, (req, store) => {
    const search = req.query.search?.toLowerCase();
    const domains = settle(store)
      .filter((d) => !search || d.name.toLowerCase().includes(search))
      .sort((a, b) => a.name.localeCompare(b.name) * (req.query.order === 'Desc' ? -1 : 1));
    return { status: 200, body: { message: 'Domains fetched successfully', payload: domains.map(shown) } };
  }),

  route(domainsEndpoints.delete, (req, store) => {
    transition(store, req.params.id, 'active', 'deleted', 'deleted');
    return { status: 200, body: { message: 'Domain deleted successfully' } };
  }),

  route(domainsEndpoints.revoke, (req, store) => {
    transition(store, req.params.id, 'deleted', 'active', 'revoked');
    return { status: 201, body: { message: 'Domain revoked successfully' } };
  }),
];
