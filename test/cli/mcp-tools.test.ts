// The tools of `outreach mcp` against the verb declarations they are made from: a verb without a tool (and no reason
// to be left out), or a tool whose schema drifts from its verb's arguments and flags, fails here.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { toolsFrom } from '../../src/cli/mcp/tools.js';
import { isRequiredFlag } from '../../src/cli/mcp/tool-schema.js';
import type { ArgSpec } from '../../src/cli/flags.js';
import { everyVerb, flagsOf } from '../helpers/verbs.js';

const verbs = await everyVerb();
const { tools, leftOut } = toolsFrom(verbs);
const byName = new Map(tools.map((tool) => [tool.name, tool]));

/** Flags an agent does not give: the guard's token stands for --yes. */
const notForAgents = new Set(['yes', 'interactive', 'input']);

describe('the tools of outreach mcp', () => {
  it('are every verb, but those left out with a reason', () => {
    for (const { path, verb } of verbs) {
      const name = path.join('_').replace(/-/g, '_');
      if (verb.agent.kind === 'leftOut') {
        expect(byName.has(name)).toBe(false);
        expect(leftOut).toContainEqual({ command: `outreach ${path.join(' ')}`, why: verb.agent.why });
      } else expect(byName.get(name)?.verb, name).toBe(verb);
    }
    expect(leftOut.map((l) => l.command).sort()).toEqual([
      'outreach api',
      'outreach auth login',
      'outreach auth logout',
      'outreach completion',
      'outreach mcp',
      'outreach profiles remove',
      'outreach profiles use',
      'outreach sandbox start',
      'outreach webhooks listen',
    ]);
  });

  it.each(tools.map((tool) => [tool.name, tool] as const))('%s: its schema is its verb declarations', (_, tool) => {
    const schema = z.toJSONSchema(tool.inputSchema) as {
      properties: Record<
        string,
        {
          type?: string;
          enum?: string[];
          minimum?: number;
          exclusiveMinimum?: number;
          maximum?: number;
          items?: unknown;
        }
      >;
      required?: string[];
    };
    const args = (tool.verb.args ?? []) as ArgSpec<unknown>[];
    const flags = flagsOf(tool.verb).filter(([key, spec]) => !spec.hidden && !notForAgents.has(key));
    const guarded = tool.guarded !== undefined;
    // A tool that reads also takes `fields`, and `limit` where its command has none, to keep its answer small.
    const read = tool.verb.agent.kind === 'read';
    const small = read ? ['fields', ...(flags.some(([key]) => key === 'limit') ? [] : ['limit'])] : [];
    expect(Object.keys(schema.properties).sort()).toEqual(
      [...args.map((a) => a.name), ...flags.map(([key]) => key), ...(guarded ? ['confirm'] : []), ...small].sort(),
    );
    expect((schema.required ?? []).sort()).toEqual(
      [
        ...args.filter((a) => !a.optional).map((a) => a.name),
        ...flags.filter(([, s]) => isRequiredFlag(s)).map(([k]) => k),
      ].sort(),
    );
    for (const [key, spec] of flags) {
      const property = schema.properties[key]!;
      const one = (spec.kind === 'list' ? property.items : property) as typeof property;
      if (spec.kind === 'bool' || spec.kind === 'negatable') expect(property.type, key).toBe('boolean');
      else if (spec.kind === 'optional-value')
        expect((property as { anyOf?: unknown[] }).anyOf, key).toEqual([
          { type: 'boolean', const: true },
          { type: 'string' },
        ]);
      else if (spec.choices) expect(one.enum, key).toEqual([...spec.choices]);
      else if (spec.type) {
        expect(one.type, key).toBe(spec.type);
        // A duration of 0 that the command refuses is refused by the schema too (exclusiveMinimum).
        if (spec.range?.min !== undefined)
          expect(spec.range.aboveMin ? one.exclusiveMinimum : one.minimum, key).toBe(spec.range.min);
        if (spec.range?.max !== undefined) expect(one.maximum, key).toBe(spec.range.max);
      } else expect(one.type, key).toBe('string');
    }
  });

  it('offer no stdin: a tool has none, and a path of - is refused', () => {
    const offering = tools.filter((tool) =>
      /-\s+for\s+stdin/.test(`${tool.description} ${JSON.stringify(z.toJSONSchema(tool.inputSchema))}`),
    );
    expect(offering.map((tool) => tool.name)).toEqual([]);
    expect(byName.get('prospects_import')!.description).toMatch(
      /^Import a prospect CSV of any size \(streamed, chunked, resumable\) \(outreach prospects import\)\.\n/,
    );
  });

  it('describe an on/off flag by both meanings and what holds when it is left out', () => {
    const schema = z.toJSONSchema(byName.get('prospects_import')!.inputSchema) as {
      properties: Record<string, { description?: string }>;
    };
    expect(schema.properties.dncCheck!.description).toBe(
      'true: check every row against the do-not-contact lists (the default); ' +
        'false: send rows without reading the do-not-contact lists (default true)',
    );
  });

  it('guard every import that would skip the do-not-contact check', () => {
    for (const name of ['prospects_import', 'sequences_import']) {
      expect(byName.get(name)!.guarded?.({ dncCheck: false }), name).toBe(true);
      expect(byName.get(name)!.guarded?.({}), name).toBe(false);
    }
  });

  it('guard what changes for good or costs, and say what only reads', () => {
    for (const tool of tools) {
      const kind = tool.verb.agent.kind;
      expect(tool.annotations.readOnlyHint, tool.name).toBe(kind === 'read');
      if (kind === 'destructive' || kind === 'paid') {
        expect(tool.guarded?.({}), tool.name).toBe(true);
        expect(tool.annotations.destructiveHint, tool.name).toBe(true);
      }
      if ('yes' in (tool.verb.flags ?? {})) expect(tool.guarded?.({}), `${tool.name} asks a person first`).toBe(true);
    }
    const imports = byName.get('prospects_import')!;
    expect([imports.guarded?.({ conflict: 'noUpdate' }), imports.guarded?.({ conflict: 'overwrite' })]).toEqual([
      false,
      true,
    ]);
  });
});
