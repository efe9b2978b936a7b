// Domains and their state machine (spec.md "States and transitions / Domain"): a purchase creates domains in
// inProgress, which become active once the provisioning delay has passed (`sandbox start --provision-seconds`);
// DELETE moves active to deleted; revoke moves deleted back to active. Anything else is refused with 400 / 1001.
import { domainsEndpoints, maxPictureBytes } from '../../../api/contract/domains.js';
import { imageType } from '../../../io/file-kind.js';
import { mb, readUpload, type Upload } from '../../upload.js';
import { defineTable } from '../../db/table.js';
import type { DomainRecord } from '../../model.js';
import { defineResource } from '../../resource.js';
import { routesOf } from '../../route.js';
import { SandboxError } from '../../sandbox-error.js';
import { seedData } from '../../seed-data.js';
import type { Store } from '../../store.js';

export const domainsTable = defineTable<DomainRecord>({ name: 'domains', id: (d) => d.id });

/** Domains whose provisioning time has come are active from then on; a name starting with `fail-` fails instead, so
 * scripts can try that path (spec.md does not show how the real service gets there). */
export function statusNow(domain: DomainRecord, now: number): DomainRecord['status'] {
  if (domain.status !== 'inProgress' || domain.activatesAt === undefined || now < domain.activatesAt)
    return domain.status;
  return domain.name.startsWith('fail-') ? 'failed' : 'active';
}

/** Every domain, with the status it has now (saved when it changed). */
function settle(store: Store): DomainRecord[] {
  const table = store.table(domainsTable);
  const domains = table.all();
  for (const domain of domains) {
    const status = statusNow(domain, store.now());
    if (status !== domain.status) {
      domain.status = status;
      delete domain.activatesAt;
      table.put(domain);
    }
  }
  return domains;
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
  store.table(domainsTable).put(domain);
}

const shown = ({ activatesAt: _, ...domain }: DomainRecord) => domain;

const routes = routesOf(domainsEndpoints, {
  purchase: (req, store) => {
    const body = req.body;
    const taken = new Set(
      settle(store)
        .filter((d) => d.status !== 'deleted')
        .map((d) => d.name.toLowerCase()),
    );
    for (const domain of body.domains) {
      if (taken.has(domain.name.toLowerCase()))
        throw new SandboxError(400, 4000, `Domain ${domain.name} is already in this account`);
      if (domain.redirectUrl && /^[a-z]+:\/\//i.test(domain.redirectUrl))
        throw new SandboxError(400, 1001, `redirectUrl must be a bare domain, not ${domain.redirectUrl}`);
      for (const mailbox of domain.mailboxes)
        if (!mailbox.email.toLowerCase().endsWith(`@${domain.name.toLowerCase()}`))
          throw new SandboxError(400, 1001, `Mailbox ${mailbox.email} is not on ${domain.name}`);
    }
    const orderId = store.id();
    for (const domain of body.domains) {
      store.table(domainsTable).put({
        id: store.id(),
        name: domain.name,
        status: 'inProgress',
        emailServiceProvider: body.emailServiceProvider,
        createdAt: store.isoNow(),
        activatesAt: store.now() + store.settings.provisionMs,
        mailboxes: domain.mailboxes,
      });
    }
    return { status: 201, body: { message: 'Order placed', payload: { orderId } } };
  },

  list: (req, store) => {
    const search = req.query.search?.toLowerCase();
    const domains = settle(store)
      .filter((d) => !search || d.name.toLowerCase().includes(search))
      .sort((a, b) => a.name.localeCompare(b.name) * (req.query.order === 'Desc' ? -1 : 1));
    return { status: 200, body: { message: 'Domains fetched successfully', payload: domains.map(shown) } };
  },

  delete: (req, store) => {
    transition(store, req.params.id, 'active', 'deleted', 'deleted');
    return { status: 200, body: { message: 'Domain deleted successfully' } };
  },

  // Mailbox profile pictures: PNG, JPEG or GIF by content, at most 1 MB; anything else 415, as the real service
  // answers. The body streams through readUpload before the request's transaction.
  uploadPicture: {
    prepare: (req) =>
      readUpload(
        req.incoming,
        maxPictureBytes,
        () => new SandboxError(415, 4150, `The picture is larger than ${mb(maxPictureBytes)}`),
      ),
    handle: (req, store) => {
      const upload = req.prepared as Upload;
      if (!imageType(upload.head)) throw new SandboxError(415, 4150, 'The picture must be a PNG, JPG or GIF image');
      if (upload.size === 0) throw new SandboxError(400, 4000, 'The file is empty');
      return { status: 201, body: { message: 'Profile picture uploaded', payload: { id: store.nextCounter() } } };
    },
  },

  revoke: (req, store) => {
    transition(store, req.params.id, 'deleted', 'active', 'revoked');
    return { status: 201, body: { message: 'Domain revoked successfully' } };
  },
});

export const domainsResource = defineResource({
  tables: [domainsTable],
  routes,
  seed(store) {
    const table = store.table(domainsTable);
    // A seeded domain still provisioning finishes a minute after the seed, so `domains list --wait` has an end.
    for (const domain of seedData<DomainRecord[]>('domains'))
      table.put(domain.status === 'inProgress' ? { ...domain, activatesAt: store.now() + 60_000 } : domain);
  },
});
