// JSON text of data nested any number of levels (src/io/json-deep.ts): what JSON.stringify
// answers, without its recursion.
import { describe, expect, it } from 'vitest';
import { INDENT_DEPTH, stringifyIteratively, stringifyJson } from '../../src/io/json-deep.js';
import { jsonText } from '../../src/io/sanitize.js';

const LEVELS = 30_000;

/** `levels` levels of objects and arrays around a leaf. */
function nested(levels: number): unknown {
  let v: unknown = { leaf: 'x\u2028"\\', n: 1.5, t: true, z: null, u: undefined, nan: Number.NaN, neg: -0 };
  for (let i = 0; i < levels; i++)
    v = i % 2 ? [v, i, undefined, () => 1, Symbol('s')] : { a: v, d: new Date(0), f: () => 1, e: [], o: {} };
  return v;
}

describe('stringifyJson', () => {
  const shapes: unknown[] = [[], {}, [[]], { a: {} }, 'text', 3, null, true, [Number.NaN, Infinity, -0], new Date(5)];
  for (let n = 0; n <= 40; n += 5) shapes.push(nested(n));

  it.each(shapes.map((v, i) => [i, v]))('writes shape %i as JSON.stringify does, with and without indent', (_i, v) => {
    for (const indent of [undefined, 0, 2, 4]) {
      const spaces = indent ? ' '.repeat(indent) : '';
      expect(stringifyIteratively(v, spaces)).toBe(JSON.stringify(v, null, indent));
      expect(stringifyJson(v, indent)).toBe(JSON.stringify(v, null, indent));
    }
  });

  // The depth is the point, with a margin: JSON.stringify overflows V8's default stack by 4,500
  // levels (Node 22 and 24), the leanest recursive walk (a frame a level, optimized) by 14,000.
  it(`writes ${LEVELS.toLocaleString('en')} levels, which JSON.stringify cannot, and the text parses back`, () => {
    const v = nested(LEVELS);
    expect(() => JSON.stringify(v)).toThrow(RangeError);
    for (const indent of [undefined, 2]) {
      const text = stringifyJson(v, indent) as string;
      let back = JSON.parse(text);
      for (let i = LEVELS - 1; i >= 0; i--) back = i % 2 ? back[0] : back.a;
      expect(back).toEqual({ leaf: 'x\u2028"\\', n: 1.5, t: true, z: null, nan: null, neg: 0 });
      // Indented only as deep as a person reads: the text stays linear in the data.
      expect(text.length).toBeLessThan(8_000_000);
    }
    expect(JSON.parse(jsonText(v, 2))).toBeTruthy();
  });

  it(`indents ${INDENT_DEPTH} levels, then goes on compact`, () => {
    const text = stringifyIteratively(nested(200), '  ') as string;
    const widest = Math.max(...text.split('\n').map((l) => /^ */.exec(l)![0].length));
    expect(widest).toBe(2 * INDENT_DEPTH);
  });
});
