// The contract's building blocks, on zod/mini: the same checks as classic zod at a fraction of the load time
// (bundled: ~12 KB against ~450 KB), because every command that talks to the API loads the contract.
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod/mini says only "Invalid input" until a locale is set; English messages that name the problem cost a few KB
// (imported alone: z.locales would bring every language).
z.config(en());

/** Ids arrive as strings or numbers; the client treats them as opaque strings. */
export const id = z.pipe(z.union([z.string(), z.number()]), z.transform(String));

export const text = z.string();
export const nonEmpty = z.string().check(z.minLength(1));
export const optional = z.optional;
export const nullish = z.nullish;

/** A whole number from a query string or a body, at least `min`. */
export const count = (name: string, min = 1, max?: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .check(
      z.int(`${name} must be a whole number`),
      z.gte(min, `${name} must be at least ${min}`),
      ...(max === undefined ? [] : [z.lte(max, `${name} must be at most ${max}`)]),
    );

/**
 * The ways the real service wraps a list (real-service-notes.md §1): a bare array, `{payload: [...]}`,
 * `{payload: {payload: [...]}}`, or the list under a named key (`{payload: {dncDetails, meta}}`,
 * `{payload: {tasks, meta}}`). Returns the items and the paging meta found on the way; unknown fields stay on the items.
 */
export function readList(
  body: unknown,
  keys: readonly string[] = [],
): { items: unknown[]; meta?: Record<string, unknown> } | undefined {
  let node: unknown = body;
  let meta: Record<string, unknown> | undefined;
  for (let depth = 0; depth < 4; depth++) {
    if (Array.isArray(node)) return { items: node, meta };
    if (!isObject(node)) return undefined;
    if (isObject(node.meta)) meta = node.meta;
    const key = keys.find((k) => Array.isArray(node && (node as Record<string, unknown>)[k]));
    node = key !== undefined ? node[key] : 'payload' in node ? node.payload : undefined;
  }
  return Array.isArray(node) ? { items: node, meta } : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The record inside however many `payload` wrappers the service put around it. */
export function unwrapRecord(body: unknown, has: string): unknown {
  let node = body;
  for (let depth = 0; depth < 4 && isObject(node) && !(has in node) && 'payload' in node; depth++) node = node.payload;
  return node;
}

/** A list response of any of the shapes above, each item handed to `take`, which adds what it makes of it to
 * `items` or says what is wrong with it. */
const listTaking = <T>(take: (raw: unknown, items: T[]) => string | undefined, keys: readonly string[]) =>
  z.pipe(
    z.unknown(),
    z.transform((body, ctx) => {
      const list = readList(body, keys);
      if (!list) {
        ctx.issues.push({ code: 'custom', message: 'no list in the answer', input: body });
        return z.NEVER;
      }
      const items: T[] = [];
      for (let index = 0; index < list.items.length; index++) {
        const wrong = take(list.items[index], items);
        if (wrong === undefined) continue;
        ctx.issues.push({ code: 'custom', message: `item ${index}: ${wrong}`, input: list.items[index] });
        return z.NEVER;
      }
      return { items, meta: list.meta };
    }),
  );

/** A list response of any of the shapes above, with each item checked by `item`. */
export const listOf = <T extends z.ZodMiniType>(item: T, keys: readonly string[] = []) =>
  listTaking<z.output<T>>((raw, items) => {
    const parsed = item.safeParse(raw);
    if (parsed.success) return void items.push(parsed.data);
    const issue = parsed.error.issues[0]!;
    return `${[...issue.path].join('.')} ${issue.message}`;
  }, keys);

/** A list response of any of the shapes above whose items are checked by a test instead of a schema (`problem` says
 * what is wrong with an item, or nothing); the items are the answer's own. For lists read ten thousand pages at a
 * time: a schema's parse of each item allocated more than the item itself (reading a million DNC values, 184 of
 * the 860 MB the read allocated). */
export const listChecked = <T>(problem: (raw: unknown) => string | undefined, keys: readonly string[] = []) =>
  listTaking<T>((raw, items) => {
    const wrong = problem(raw);
    if (wrong === undefined) items.push(raw as T);
    return wrong;
  }, keys);

export const pageMeta = z.looseObject({
  totalItems: z.optional(z.number()),
  currentPage: z.optional(z.number()),
  itemsPerPage: z.optional(z.number()),
  totalPages: z.optional(z.number()),
  itemCount: z.optional(z.number()),
});

/** The first problem a schema found, with where it is: `body.taskIds: at most 100 task ids per request`. */
export function describeIssue(
  error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string; code?: string; expected?: string }> },
  where: string,
): string {
  const issue = error.issues[0]!;
  const at = [where, ...issue.path.map(String)].join('.');
  // A value of the wrong type, or none, in words rather than the validator's default ("Invalid input: expected number,
  // received undefined"); a schema's own message stays.
  if (issue.code === 'invalid_type' && issue.expected && /^Invalid input: expected/.test(issue.message)) {
    const kind = typeWords[issue.expected] ?? issue.expected;
    return /received undefined$/.test(issue.message) ? `${at}: required (${kind})` : `${at}: must be ${kind}`;
  }
  return `${at}: ${issue.message}`;
}

const typeWords: Record<string, string> = {
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

/** A record that arrives flat or inside one or more `payload` wrappers, recognised by one of its fields. */
export const wrapped = <T extends z.ZodMiniType>(schema: T, recognisedBy: string) =>
  z.pipe(
    z.pipe(
      z.unknown(),
      z.transform((body) => unwrapRecord(body, recognisedBy)),
    ),
    schema,
  );
