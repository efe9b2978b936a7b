import type { z } from 'zod/mini';
import { flag, renamed } from '../../cli/flags.js';
import { conflicts, defineVerb, type Options } from '../../cli/verb.js';
import type { CommandContext } from '../../cli/command-context.js';
import type { HttpClient } from '../../api/http.js';
import { valueResult } from '../../cli/result.js';
import { NetworkError, UsageError } from '../../errors.js';
import { domainPurchaseBody, domainsEndpoints } from '../../api/contract/domains.js';
import { describeIssue, unwrapRecord } from '../../api/contract/schema.js';
import { callWithBody } from '../../api/call.js';
import { uploadFile } from '../../api/resources/uploads.js';
import { readJsonOrYaml } from '../../io/structured-file.js';
import { checkedPicture } from './picture.js';
import { confirmed } from '../../cli/confirm.js';

type PurchaseBody = z.output<typeof domainPurchaseBody>;
const providers = ['google', 'microsoft', 'azure'] as const;
const plans = ['quarterly', 'annualFlexi', 'annualFixed'] as const;
const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `alice@acme.com:Alice:Smith`; without names, the first name is the address's local part. */
function mailbox(raw: string, ownerLast: string | undefined) {
  const [email = '', first, last] = raw.split(':');
  return {
    email: email.trim(),
    firstname: first ?? capitalised(email.split('@')[0] ?? ''),
    lastname: last ?? ownerLast ?? '',
  };
}

/** What the service would refuse, found before anything is sent: the contract's rules, then the cross-field ones. */
function checkOrder(order: unknown, where: string): PurchaseBody {
  const checked = domainPurchaseBody.safeParse(withDefaults(order));
  if (!checked.success) throw new UsageError(`${where}: ${describeIssue(checked.error, 'order')}`);
  for (const domain of checked.data.domains) {
    if (domain.redirectUrl && !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(domain.redirectUrl))
      throw new UsageError(
        `${where}: redirect of ${domain.name}: "${domain.redirectUrl}" must be a bare domain like acme.com`,
      );
    if (!domain.mailboxes.length) throw new UsageError(`${where}: ${domain.name} has no mailbox`);
    for (const box of domain.mailboxes) {
      if (!box.email.toLowerCase().endsWith(`@${domain.name.toLowerCase()}`))
        throw new UsageError(`${where}: mailbox ${box.email} is not on ${domain.name}`);
      for (const [field, name] of [
        ['first name', box.firstname],
        ['last name', box.lastname],
      ] as const)
        if (name.length < 1 || name.length > 50)
          throw new UsageError(`${where}: mailbox ${box.email}: ${field} must be 1 to 50 characters`);
    }
  }
  return checked.data;
}

/** What the flags fill in, filled in for an order from a file too: a mailbox without a picture has profilePicId 0. */
function withDefaults(order: unknown): unknown {
  const domains = (order as { domains?: unknown } | null)?.domains;
  if (!Array.isArray(domains)) return order;
  for (const domain of domains) {
    const boxes = (domain as { mailboxes?: unknown } | null)?.mailboxes;
    if (Array.isArray(boxes))
      for (const box of boxes)
        if (box && typeof box === 'object' && !('profilePicId' in box))
          (box as Record<string, unknown>).profilePicId = 0;
  }
  return order;
}

function summary(order: PurchaseBody): string {
  const boxes = order.domains.reduce((n, d) => n + d.mailboxes.length, 0);
  const lines = order.domains.map(
    (d) =>
      `  ${d.name}${d.redirectUrl ? ` (redirects to ${d.redirectUrl})` : ''}: ${d.mailboxes.map((m) => m.email).join(', ')}`,
  );
  const head = `Order: ${order.domains.length} domain(s), ${boxes} mailbox(es), ${order.emailServiceProvider}`;
  return `${head}, plan ${order.planType ?? 'quarterly'}\n${lines.join('\n')}`;
}

const flags = {
  file: renamed(flag.text('the whole order as JSON or YAML (the request body)', { value: 'file' }), 'fromFile'),
  domain: flag.text('the domain to buy', { value: 'name' }),
  mailbox: flag.list('a mailbox on it: EMAIL or EMAIL:First:Last', { value: 'email' }),
  redirectUrl: flag.text('where the domain redirects: a bare domain like acme.com', { value: 'domain' }),
  provider: flag.choice(providers, 'email service provider', { value: 'name' }),
  plan: flag.choice(plans, 'plan (Azure: quarterly only)', { value: 'plan' }),
  ownerFirst: flag.text("domain owner's first name", { value: 'name' }),
  ownerLast: flag.text("domain owner's last name", { value: 'name' }),
  company: flag.text('company name', { value: 'name' }),
  address: flag.text('street address', { value: 'text' }),
  city: flag.text('city', { value: 'name' }),
  state: flag.text('state or region', { value: 'name' }),
  zipcode: flag.text('postal code', { value: 'code' }),
  country: flag.text('ISO 3166 country code, e.g. US', { value: 'code' }),
  phone: flag.text('phone in E.164, e.g. +14155550100', { value: 'number' }),
  mailboxPicture: flag.text('upload this picture and use it for every mailbox', { value: 'file' }),
  yes: flag.bool('do not ask for confirmation', { short: '-y' }),
  dryRun: flag.bool('print the request body; send nothing'),
};
type Opts = Options<[], typeof flags>;

export default defineVerb({
  agent: { kind: 'paid', idempotent: false },
  description: [
    'One domain from flags, or many from --file order.json|yaml (the request body). Everything is checked before',
    'sending: names of 1-50 characters, an ISO country code (US), an E.164 phone (+14155550100), mailboxes on the',
    'domain being bought, a bare domain as redirect. The order is shown and confirmed (or --yes); --dry-run prints the',
    'request body and sends nothing. A purchase spends money and is never sent twice: if its answer is lost, check',
    '`outreach domains list` before trying again. Provisioning runs at the service: follow it with',
    '`outreach domains list --wait`.',
  ].join('\n'),
  examples: [
    'domains buy --domain acme-mail.com --mailbox alice@acme-mail.com:Alice:Smith --provider google --owner-first Ann ' +
      '--owner-last Lee --company Acme --address "1 Main St" --zipcode 94105 --country US --phone +14155550100 --yes',
    'domains buy --file order.yaml --dry-run',
  ],
  flags,
  rules: [conflicts('file', 'domain'), conflicts('file', 'mailbox'), conflicts('dryRun', 'mailboxPicture')],
  async run(ctx, opts) {
    const order = opts.file
      ? checkOrder(await readJsonOrYaml(opts.file, ctx, opts.file), opts.file)
      : await orderFromFlags(ctx, opts);
    if (order.emailServiceProvider === 'Azure' && order.planType && order.planType !== 'quarterly')
      throw new UsageError(`--plan: Azure is sold only on the quarterly plan, not ${order.planType}`);
    const picture = opts.mailboxPicture && checkedPicture(ctx, opts.mailboxPicture);

    if (opts.dryRun)
      return valueResult(order, `${JSON.stringify(order, null, 2)}\n`, { said: 'Dry run: nothing was sent.' });
    const go = await confirmed(ctx, {
      preview: summary(order),
      yes: opts.yes,
      question: 'Place this order?',
      refusal: 'refusing to buy without --yes (no terminal to ask on)',
      hint: 'Look first with --dry-run.',
      declined: 'Nothing bought.',
    });
    if (!go) return;
    const http = await ctx.http();
    if (picture) {
      const { id } = await uploadFile(http, domainsEndpoints.uploadPicture, picture);
      for (const domain of order.domains) for (const box of domain.mailboxes) box.profilePicId = Number(id);
    }
    const answer = await purchase(http, order);
    // The order as the service sent it, out of its envelope (checkoutUrl, or orderId for a free order).
    const payload = (answer.data.payload ?? {}) as { orderId?: unknown; checkoutUrl?: unknown };
    const lines = [
      ...(payload.checkoutUrl ? [`checkout\t${String(payload.checkoutUrl)}\n`] : []),
      ...(payload.orderId ? [`order\t${String(payload.orderId)}\n`] : []),
    ];
    return valueResult(unwrapRecord(answer.body, 'orderId'), lines.join(''), {
      said: `Provisioning runs at the service. Follow it with: ${ctx.commandLine(['domains', 'list', '--wait'])}`,
    });
  },
});

/** Sends the order once: a purchase whose answer was lost is never sent again by itself. */
async function purchase(http: HttpClient, order: PurchaseBody) {
  try {
    return await callWithBody(http, domainsEndpoints.purchase, { body: order });
  } catch (error) {
    if (error instanceof NetworkError && error.sent)
      throw new NetworkError(
        `the purchase may have reached the service, but its answer was lost (${error.message})`,
        error.code,
        true,
        'It is not sent again automatically. Check `outreach domains list` before trying again.',
      );
    throw error;
  }
}

/** One domain's order from the flags, asking on a terminal for what is missing; without one, the missing flags are
 * named. */
async function orderFromFlags(ctx: CommandContext, opts: Opts): Promise<PurchaseBody> {
  const ask = async (value: string | undefined, message: string) =>
    value ?? (ctx.interactive ? (await ctx.prompter.input({ message })).trim() : undefined);
  const domain = await ask(opts.domain, 'Domain to buy');
  if (!domain) throw new UsageError('--domain is required (or --file for a whole order)');
  const ownerLast = await ask(opts.ownerLast, "Owner's last name");
  let boxes = opts.mailbox;
  if (!boxes.length && ctx.interactive) boxes = [(await ask(undefined, `Mailbox on ${domain} (EMAIL:First:Last)`))!];
  if (!boxes.length) throw new UsageError('--mailbox is required: at least one mailbox on the domain');
  const provider =
    opts.provider ??
    (ctx.interactive
      ? await ctx.prompter.select({
          message: 'Email service provider',
          choices: providers.map((p) => ({ value: p, name: capitalised(p) })),
        })
      : undefined);
  if (!provider) throw new UsageError('--provider is required: google, microsoft or azure');
  const owner = {
    domainOwnerFirstname: await ask(opts.ownerFirst, "Owner's first name"),
    domainOwnerLastname: ownerLast,
    companyName: await ask(opts.company, 'Company name'),
    address: await ask(opts.address, 'Street address'),
    country: await ask(opts.country, 'Country (ISO code, e.g. US)'),
    zipcode: await ask(opts.zipcode, 'Postal code'),
    phoneNumber: await ask(opts.phone, 'Phone (E.164, e.g. +14155550100)'),
  };
  const missing = (Object.keys(owner) as Array<keyof typeof owner>).filter((key) => !owner[key]);
  if (missing.length) throw new UsageError(`missing: ${missing.map((key) => ownerFlags[key]).join(', ')}`);
  return checkOrder(
    {
      ...owner,
      ...(opts.city ? { city: opts.city } : {}),
      ...(opts.state ? { state: opts.state } : {}),
      emailServiceProvider: capitalised(provider),
      ...(opts.plan ? { planType: opts.plan } : {}),
      domains: [
        {
          name: domain,
          ...(opts.redirectUrl ? { redirectUrl: opts.redirectUrl } : {}),
          mailboxes: boxes.map((raw) => ({ ...mailbox(raw, ownerLast), profilePicId: 0 })),
        },
      ],
    },
    'order',
  );
}

/** The flag of each owner field: without a terminal to ask on, the missing ones are said by these names. */
const ownerFlags = {
  domainOwnerFirstname: '--owner-first',
  domainOwnerLastname: '--owner-last',
  companyName: '--company',
  address: '--address',
  country: '--country',
  zipcode: '--zipcode',
  phoneNumber: '--phone',
} as const;
