import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { methodInfo, METHOD_INDEX_NAMES } from '../../src/api/method-index.js';
import { METHOD_NAMES, METHODS } from '../../src/api/methods.js';

describe('compiled method index', () => {
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
        largeAnswer: Boolean(m.largeAnswer),
        summary: m.summary,
        schema,
      });
    }
  });
});
