// Flags and arguments declared once: each declaration gives the commander option (name, value, help text), its
// validation, and the type run() receives. A bad value gets one message that names the flag once and says what is
// allowed; rules between flags sit beside the declarations (see `rules` in verb.ts).
import { closest } from '../io/import/closest.js';

/** What a value must be, for messages: "a whole number from 1 to 100". Thrown by parsers, named by the caller. */
export class ValueProblem extends Error {}

/** `; did you mean X?` for a value near one of a fixed set (a typo, a part of it: voicemail for left-voicemail). */
export function didYouMean(raw: string, values: readonly string[]): string {
  const near = closest(raw.trim(), [...values], (s) => s.toLowerCase(), 2);
  return near.length ? `; did you mean ${near.join(' or ')}?` : '';
}

export interface FlagSpec<T> {
  help: string;
  /** `value`: takes a value; `bool`: a switch; `list`: repeatable; `negatable`: --x and --no-x. */
  kind: 'value' | 'optional-value' | 'bool' | 'list' | 'negatable';
  /** The value's name in help: `--page <n>`. */
  valueName?: string;
  short?: string;
  /** Fixed values, for help and shell completion. */
  choices?: readonly string[];
  /** Shown in help as the default. */
  defaultText?: string;
  /** The bounds of a number, for help, checks and schemas (`aboveMin`: the minimum itself is not taken). */
  range?: { min?: number; max?: number; aboveMin?: boolean };
  /** A number (a duration in seconds) or a whole one (a count): what a schema for agents asks for. */
  type?: 'number' | 'integer';
  /** Earlier names (camelCase keys) still taken, unlisted, so scripts written for them keep working. */
  aliases?: readonly string[];
  /** Taken but not listed in help (a spelling kept for scripts). */
  hidden?: boolean;
  parse(raw: unknown): T;
}

/** The same flag under an earlier name too: `renamed(flag.text(...), 'fromFile')` takes --from-file, unlisted. */
export function renamed<S extends FlagSpec<unknown>>(spec: S, ...aliases: string[]): S {
  return { ...spec, aliases };
}

/** A flag taken but not listed in help. */
export function hidden<S extends FlagSpec<unknown>>(spec: S): S {
  return { ...spec, hidden: true };
}

export interface ArgSpec<T> {
  name: string;
  /** Fixed values, for shell completion. */
  choices?: readonly string[];
  help?: string;
  variadic: boolean;
  optional: boolean;
  parse(raw: unknown): T;
}

const given = (raw: unknown): raw is string => typeof raw === 'string';

const sortOrders = ['asc', 'desc'] as const;
export type SortOrder = (typeof sortOrders)[number];
const shown = (raw: string) => JSON.stringify(raw);

function numberIn(raw: string, opts: { min?: number; max?: number; integer?: boolean }): number {
  const value = Number(raw);
  const kind = opts.integer ? 'a whole number' : 'a number';
  const range =
    opts.min !== undefined && opts.max !== undefined
      ? ` from ${opts.min} to ${opts.max}`
      : opts.min !== undefined
        ? ` of at least ${opts.min}`
        : opts.max !== undefined
          ? ` of at most ${opts.max}`
          : '';
  const ok =
    raw.trim() !== '' &&
    Number.isFinite(value) &&
    (!opts.integer || Number.isInteger(value)) &&
    (opts.min === undefined || value >= opts.min) &&
    (opts.max === undefined || value <= opts.max);
  if (!ok) throw new ValueProblem(`must be ${kind}${range}, not ${shown(raw)}`);
  return value;
}

interface ValueOptions<D> {
  value?: string;
  short?: string;
  default?: D;
}

type WithDefault<T, D> = undefined extends D ? T | undefined : T;

type NumberOptions<D> = ValueOptions<D> & { min?: number; max?: number };

function numeric<D extends number | undefined>(help: string, opts: NumberOptions<D>, integer: boolean) {
  return {
    help,
    kind: 'value',
    valueName: opts.value ?? 'n',
    short: opts.short,
    defaultText: opts.default === undefined ? undefined : String(opts.default),
    range: { min: opts.min, max: opts.max },
    type: integer ? 'integer' : 'number',
    parse: (raw: unknown) =>
      (given(raw) ? numberIn(raw, { ...opts, integer }) : opts.default) as WithDefault<number, D>,
  } satisfies FlagSpec<WithDefault<number, D>>;
}

export const flag = {
  /** Free text. */
  text<D extends string | undefined = undefined>(help: string, opts: ValueOptions<D> & { nonEmpty?: boolean } = {}) {
    return {
      help,
      kind: 'value',
      valueName: opts.value ?? 'text',
      short: opts.short,
      defaultText: opts.default,
      parse(raw: unknown) {
        if (!given(raw)) return opts.default as WithDefault<string, D>;
        if (opts.nonEmpty && !raw.trim()) throw new ValueProblem('must not be empty');
        return raw;
      },
    } satisfies FlagSpec<WithDefault<string, D>>;
  },

  /** A whole number within bounds. */
  int<D extends number | undefined = undefined>(help: string, opts: NumberOptions<D> = {}) {
    return numeric(help, opts, true);
  },

  /** A number within bounds (fractions allowed). */
  number<D extends number | undefined = undefined>(help: string, opts: NumberOptions<D> = {}) {
    return numeric(help, opts, false);
  },

  /** A duration in seconds (fractions allowed), given to run() in milliseconds. */
  seconds<D extends number | undefined = undefined>(
    help: string,
    opts: ValueOptions<D> & { allowZero?: boolean; defaultText?: string; max?: number } = {},
  ) {
    return {
      help,
      kind: 'value',
      valueName: opts.value ?? 'seconds',
      short: opts.short,
      type: 'number',
      range: { min: 0, aboveMin: !opts.allowZero, ...(opts.max === undefined ? {} : { max: opts.max }) },
      defaultText: opts.defaultText ?? (opts.default === undefined ? undefined : String(opts.default)),
      parse(raw: unknown) {
        if (!given(raw))
          return (opts.default === undefined ? undefined : opts.default * 1000) as WithDefault<number, D>;
        const seconds = Number(raw);
        if (raw.trim() === '' || !Number.isFinite(seconds) || seconds < 0 || (seconds === 0 && !opts.allowZero))
          throw new ValueProblem(
            `must be a ${opts.allowZero ? 'non-negative' : 'positive'} number of seconds, not ${shown(raw)}`,
          );
        if (opts.max !== undefined && seconds > opts.max)
          throw new ValueProblem(`must be at most ${opts.max} seconds, not ${shown(raw)}`);
        return seconds * 1000;
      },
    } satisfies FlagSpec<WithDefault<number, D>>;
  },

  /** One of fixed values; `normalise` maps other spellings (any case, hyphens) to one of them or undefined. */
  choice<const V extends string, const D extends V | undefined = undefined>(
    values: readonly V[],
    help: string,
    opts: ValueOptions<D> & { normalise?: (raw: string) => V | undefined; spellings?: string } = {},
  ) {
    return {
      help,
      kind: 'value',
      valueName: opts.value ?? 'value',
      short: opts.short,
      choices: values,
      defaultText: opts.default,
      parse(raw: unknown) {
        if (!given(raw)) return opts.default as WithDefault<V, D>;
        // Any case is the same value (Call for call, Active for active), as sort orders are.
        const value = opts.normalise
          ? opts.normalise(raw)
          : (values.find((v) => v === raw) ?? values.find((v) => v.toLowerCase() === raw.toLowerCase()));
        if (value === undefined) {
          throw new ValueProblem(
            `must be one of ${values.join(', ')}${opts.spellings ?? ''}, not ${shown(raw)}${didYouMean(String(raw), values)}`,
          );
        }
        return value as WithDefault<V, D>;
      },
    } satisfies FlagSpec<WithDefault<V, D>>;
  },

  /** Sort order: asc or desc, in any case. */
  order<const D extends SortOrder | undefined = undefined>(help: string, opts: { default?: D } = {}) {
    return flag.choice(sortOrders, help, {
      value: 'order',
      default: opts.default,
      normalise: (raw) => sortOrders.find((o) => o === raw.toLowerCase()),
      spellings: ' (any case)',
    });
  },

  /** A switch: false unless given. */
  bool(help: string, opts: { short?: string } = {}) {
    return { help, kind: 'bool', short: opts.short, parse: (raw: unknown) => raw === true } satisfies FlagSpec<boolean>;
  },

  /** --x and --no-x; without either, `fallback` (undefined lets run() choose by context). */
  negatable<D extends boolean | undefined = undefined>(help: string, noHelp: string, fallback?: D) {
    return {
      help,
      kind: 'negatable',
      defaultText: noHelp,
      parse: (raw: unknown) => (typeof raw === 'boolean' ? raw : fallback) as WithDefault<boolean, D>,
    } satisfies FlagSpec<WithDefault<boolean, D>>;
  },

  /** Repeatable: every value given, in order, each read by `each` when given; `min` makes it required. */
  list<T = string>(
    help: string,
    opts: { value?: string; short?: string; min?: number; each?: (raw: string) => T } = {},
  ) {
    return {
      help,
      kind: 'list',
      valueName: opts.value ?? 'value',
      short: opts.short,
      parse(raw: unknown) {
        const values = Array.isArray(raw) ? (raw as string[]) : [];
        if (opts.min && values.length < opts.min)
          throw new ValueProblem(values.length ? `is needed at least ${opts.min} times` : 'is required');
        return values.map((value) => (opts.each ? opts.each(value) : value)) as T[];
      },
    } satisfies FlagSpec<T[]>;
  },

  /** Text that must be given. */
  requiredText(help: string, opts: { value?: string; short?: string } = {}) {
    return {
      help,
      kind: 'value',
      valueName: opts.value ?? 'text',
      short: opts.short,
      defaultText: 'required',
      parse(raw: unknown) {
        if (!given(raw)) throw new ValueProblem('is required');
        if (!raw.trim()) throw new ValueProblem('must not be empty');
        return raw;
      },
    } satisfies FlagSpec<string>;
  },

  /** Comma-separated values: `--tags a,b` -> ['a', 'b'] (blanks dropped); undefined when not given. */
  commaList(help: string, opts: { value?: string } = {}) {
    return {
      help,
      kind: 'value',
      valueName: opts.value ?? 'a,b',
      parse: (raw: unknown) =>
        given(raw)
          ? raw
              .split(',')
              .map((item) => item.trim())
              .filter(Boolean)
          : undefined,
    } satisfies FlagSpec<string[] | undefined>;
  },

  /** `--resume [journal]`: true when given alone, the value when one follows, undefined when absent. */
  optionalText(help: string, opts: { value?: string } = {}) {
    return {
      help,
      kind: 'optional-value',
      valueName: opts.value ?? 'value',
      parse: (raw: unknown) => (raw === true || given(raw) ? raw : undefined),
    } satisfies FlagSpec<string | true | undefined>;
  },

  /** A value read by `read`, which throws ValueProblem (or returns the typed value). */
  custom<T>(help: string, read: (raw: string) => T, opts: { value?: string; short?: string } = {}) {
    return {
      help,
      kind: 'value',
      valueName: opts.value ?? 'value',
      short: opts.short,
      parse: (raw: unknown) => (given(raw) ? read(raw) : undefined),
    } satisfies FlagSpec<T | undefined>;
  },
};

export const arg = {
  /** A required argument. */
  text(name: string, opts: { choices?: readonly string[]; normalise?: (raw: string) => string | undefined } = {}) {
    return {
      name,
      variadic: false,
      optional: false,
      choices: opts.choices,
      parse(raw: unknown) {
        const text = String(raw ?? '');
        if (!text) throw new ValueProblem('is required');
        const value = opts.normalise
          ? opts.normalise(text)
          : !opts.choices || opts.choices.includes(text)
            ? text
            : undefined;
        if (value === undefined)
          throw new ValueProblem(
            `must be one of ${opts.choices?.join(', ')}, not ${shown(text)}${didYouMean(text, opts.choices ?? [])}`,
          );
        return value;
      },
    } satisfies ArgSpec<string>;
  },
  /** An argument that may be left out (only last). */
  optional(name: string) {
    return {
      name,
      variadic: false,
      optional: true,
      parse: (raw: unknown) => (typeof raw === 'string' && raw ? raw : undefined),
    } satisfies ArgSpec<string | undefined>;
  },
  /** Zero or more (or, with `min`, at least that many) values. */
  list(name: string, opts: { min?: number } = {}) {
    return {
      name,
      variadic: true,
      optional: !opts.min,
      parse(raw: unknown) {
        const values = Array.isArray(raw) ? (raw as string[]) : [];
        if (opts.min && values.length < opts.min) throw new ValueProblem(`give at least ${opts.min}`);
        return values;
      },
    } satisfies ArgSpec<string[]>;
  },
};

export type FlagValues<F extends Record<string, FlagSpec<unknown>>> = { [K in keyof F]: ReturnType<F[K]['parse']> };
export type ArgValues<A extends readonly ArgSpec<unknown>[]> = { [K in keyof A]: ReturnType<A[K]['parse']> };

/** `pageSize` -> `--page-size`. */
export function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** The commander option syntax and help of a flag. */
export function optionSyntax(key: string, spec: FlagSpec<unknown>): { flags: string; help: string } {
  const name = flagName(key);
  const value =
    spec.kind === 'value' || spec.kind === 'list'
      ? ` <${spec.valueName}>`
      : spec.kind === 'optional-value'
        ? ` [${spec.valueName}]`
        : '';
  const flags = `${spec.short ? `${spec.short}, ` : ''}${name}${value}`;
  const defaultText = spec.defaultText === 'required' ? 'required' : spec.defaultText && `default ${spec.defaultText}`;
  const extras = [
    spec.choices ? `one of: ${spec.choices.join(', ')}` : '',
    spec.kind === 'list' ? 'repeatable' : '',
    spec.kind !== 'negatable' ? defaultText : '',
  ]
    .filter(Boolean)
    .join('; ');
  return { flags, help: extras ? `${spec.help} (${extras})` : spec.help };
}
