import { defineVerb } from '../../cli/verb.js';
import { arg, flag, renamed } from '../../cli/flags.js';
import { jsonResult, textResult } from '../../cli/result.js';
import { UsageError } from '../../errors.js';
import { findEndpoint } from '../../api/contract/index.js';
import type { QueryValue, SendOptions } from '../../api/http.js';
import { readJson } from '../../io/structured-file.js';

const methods = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

/** `-F` values are typed: numbers, true/false and null become JSON; everything else stays a string. */
function typedValue(raw: string): unknown {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}

function splitPair(pair: string, flag: string): [string, string] {
  const at = pair.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} "${pair}": expected key=value`);
  return [pair.slice(0, at), pair.slice(at + 1)];
}

// Keys that would reach an object's prototype: `-f __proto__.saveTo=PATH` must not set an option of the request.
const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

type Params = Record<string, unknown>;
/** Parameters live on objects without a prototype, so no key can reach Object.prototype. */
const emptyParams = (): Params => Object.create(null) as Params;

/** Sets `a.b[]` style keys: dots nest objects, a trailing [] appends to an array. */
function assign(target: Params, key: string, value: unknown, flag: string): void {
  const parts = key.split('.');
  for (const part of parts) {
    const name = part.endsWith('[]') ? part.slice(0, -2) : part;
    if (forbiddenKeys.has(name))
      throw new UsageError(`${flag} "${key}": "${name}" cannot be used as a key`, 'Send such a body with --file.');
  }
  let node = target;
  parts.forEach((part, i) => {
    const isArray = part.endsWith('[]');
    const name = isArray ? part.slice(0, -2) : part;
    const existing = Object.hasOwn(node, name) ? node[name] : undefined;
    if (i === parts.length - 1) {
      if (isArray) node[name] = [...(Array.isArray(existing) ? existing : []), value];
      else node[name] = value;
      return;
    }
    if (existing === undefined) node[name] = emptyParams();
    else if (typeof existing !== 'object' || existing === null || Array.isArray(existing))
      throw new UsageError(`${flag} "${key}": "${parts.slice(0, i + 1).join('.')}" already has a value`);
    node = node[name] as Params;
  });
}

export default defineVerb({
  agent: { kind: 'leftOut', why: 'a raw request passes by every guard; agents get the typed tools' },
  args: [
    arg.text('method', { choices: methods, normalise: (m) => methods.find((known) => known === m.toUpperCase()) }),
    arg.text('path'),
  ],
  description:
    'GET and DELETE send -f/-F pairs as query parameters; other methods send them as a JSON body.\n' +
    '-f key=value sends a string; -F key=value sends numbers, true, false and null as JSON. Keys nest with dots\n' +
    '(a.b=1) and append with [] (ids[]=x). --file sends a JSON file (or - for stdin) as the body.\n' +
    'Requests the contract marks as safe to replay are retried after 500s; others only when they never reached the server.',
  examples: [
    'api GET /v1/dnc/dncGlobal1 -F page=2 -F pageSize=50',
    'api POST /v1/tasks/bulk-skip -f "taskIds[]=tk000001" -f "taskIds[]=tk000002"',
    'api PATCH /v1/fields/cSeats00 --file patch.json',
  ],
  flags: {
    rawField: flag.list('add a string parameter', { short: '-f', value: 'key=value' }),
    field: flag.list('add a typed parameter', { short: '-F', value: 'key=value' }),
    file: renamed(flag.text('JSON body from a file, or - for stdin', { value: 'path' }), 'input'),
  },
  async run(ctx, opts) {
    const [method, rawPath] = opts.args;
    const path = rawPath.startsWith('/') || /^https?:/.test(rawPath) ? rawPath : `/${rawPath}`;
    const params = emptyParams();
    for (const pair of opts.rawField) {
      const [key, raw] = splitPair(pair, '-f');
      assign(params, key, raw, '-f');
    }
    for (const pair of opts.field) {
      const [key, raw] = splitPair(pair, '-F');
      assign(params, key, typedValue(raw), '-F');
    }
    const bodyless = method === 'GET' || method === 'DELETE';
    let json: unknown;
    if (opts.file !== undefined) {
      if (bodyless) throw new UsageError(`--file: ${method} requests carry no body`);
      json = await readJson(opts.file, ctx, `--file: ${opts.file === '-' ? 'stdin' : opts.file}`);
      if (Object.keys(params).length) Object.assign(json as object, params);
    } else if (!bodyless && Object.keys(params).length) json = params;

    const http = await ctx.http();
    const endpoint = findEndpoint(method, path);
    // Without a prototype: an option the sender reads (saveTo, withoutKey) is one set here or none.
    const options: SendOptions = Object.assign(Object.create(null) as SendOptions, {
      query: bodyless ? (params as Record<string, QueryValue>) : undefined,
      json,
      replaySafe: endpoint?.replaySafe ?? bodyless,
    });
    const response = await http.send(method, path, options);
    if (typeof response.body === 'string')
      return textResult(response.body.endsWith('\n') ? response.body : `${response.body}\n`);
    if (response.body !== undefined) return jsonResult(response.body);
  },
});
