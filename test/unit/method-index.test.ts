import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { methodInfo, METHOD_INDEX_NAMES } from '../../src/api/method-index.js';
import { METHOD_NAMES, METHODS } from '../../src/api/methods.js';
import { checkArgsAgainstSchema, validateArgs, type JsonSchema } from '../../src/api/validate.js';

/** A value that fits the schema, and a handful that each break it in one way. */
function sample(schema: JsonSchema): unknown {
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'string':
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return Math.max(0, schema.minimum ?? 0);
    case 'boolean':
      return true;
    case 'array':
      return schema.items ? [sample(schema.items)] : [];
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sample(s)]));
    default:
      return 'x';
  }
}

function variants(schema: JsonSchema): unknown[] {
  const base = sample(schema) as Record<string, unknown>;
  const out: unknown[] = [base, {}, { ...base, surprise: 1 }, { surprise: 1, other: 2 }, [], 'text', null];
  for (const [k, s] of Object.entries(schema.properties ?? {})) {
    const wrong = [
      null,
      '',
      3,
      1.5,
      -1,
      true,
      'x',
      [],
      {},
      ['a', 2],
      'y'.repeat((s.maxLength ?? 5) + 1),
      new Array((s.maxItems ?? 1) + 1).fill('p'),
    ];
    for (const w of wrong) out.push({ ...base, [k]: w });
    const { [k]: _gone, ...without } = base;
    out.push(without, { ...without, surprise: 1 });
    if (s.type === 'object') out.push({ ...base, [k]: { ...(sample(s) as object), extra: 1 } }, { ...base, [k]: {} });
  }
  return out;
}

describe('light method index', () => {
  it('holds every method of the registry', () => {
    expect([...METHOD_INDEX_NAMES].sort()).toEqual([...METHOD_NAMES].sort());
    expect(methodInfo('nope')).toBeUndefined();
    expect(methodInfo('constructor')).toBeUndefined();
  });

  it('is up to date with the registry (run `npm run build` after changing src/api/methods.ts)', () => {
    for (const name of METHOD_NAMES) {
      const m = METHODS[name];
      const { $schema: _s, ...schema } = z.toJSONSchema(m.args) as Record<string, unknown>;
      expect(methodInfo(name), name).toEqual({
        name,
        scope: m.scope,
        write: m.write,
        destructive: m.destructive,
        listing: m.listing ?? null,
        permission: m.permission ?? null,
        argsShown: m.argsShown,
        analytics: Boolean(m.analytics),
        summary: m.summary,
        schema,
      });
    }
  });

  it('gives exactly the messages of the zod registry, for every method', () => {
    let compared = 0;
    for (const name of METHOD_NAMES) {
      const info = methodInfo(name)!;
      for (const args of variants(info.schema)) {
        const fromZod = validateArgs(METHODS[name], args);
        const fromJson = checkArgsAgainstSchema(name, info.schema, args);
        expect(fromJson, `${name} ${JSON.stringify(args).slice(0, 120)}`).toEqual(fromZod);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
