// Two emulators on two fake clocks at the same time, one in the default shapes and one in the
// random shapes of a seed, fed the same calls: the random side's arguments are the default
// side's with the seed's argument names and id forms (the n-th job is the n-th job on both
// sides), so their answers differ only by the shapes. Used by random-shapes.test.ts.
import { FakeClock } from '../../src/clock.js';
import { Arguments } from '../../src/emulator/shapes/random/arguments.js';
import { Draw } from '../../src/emulator/shapes/random/draw.js';
import type { RandomShapes } from '../../src/emulator/shapes/random/index.js';
import { randomId } from '../../src/emulator/shapes/random/values.js';
import { type Harness, harness, type RawAnswer } from './helpers.js';

export const START = Date.UTC(2026, 10, 22, 12, 0, 0);
const GENERATED = /\b([a-z]+)_(\d{6})\b/g;

export interface Twins {
  seed: number;
  def: Harness;
  rnd: Harness;
  shapes: RandomShapes;
  advance(ms: number): void;
  /** A value of the default side as the random side spells it: ids in the seed's forms, the other base URL. */
  translate<T>(value: T): T;
  /** The same call on both sides (arguments given as the default side takes them; `more` for the random side's own values). */
  both(
    method: string,
    args: Record<string, unknown>,
    more?: Record<string, unknown>,
  ): Promise<{ d: RawAnswer; r: RawAnswer }>;
  close(): Promise<void>;
}

export async function twins(seed: number): Promise<Twins> {
  const clocks = [new FakeClock(START), new FakeClock(START)];
  const def = await harness({ clock: clocks[0], shapes: 'default' });
  const rnd = await harness({ clock: clocks[1], shapes: `random:${seed}` });
  const draw = new Draw(seed);
  const args = new Arguments(draw);
  const translate = <T>(value: T): T => {
    if (typeof value === 'string')
      return value
        .replace(GENERATED, (_, prefix: string, n: string) => randomId(draw, prefix, Number(n)))
        .replaceAll(def.emu.baseUrl, rnd.emu.baseUrl) as T;
    if (Array.isArray(value)) return value.map(translate) as T;
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, translate(v)])) as T;
    return value;
  };
  /** Our argument names → the seed's (the ones it takes). */
  const renamed = (method: string, a: Record<string, unknown>) => {
    const out = translate(a);
    for (const c of args.of(method)?.choices ?? []) {
      if (c.theirs === c.ours || !(c.ours in out)) continue;
      out[c.theirs] = out[c.ours];
      delete out[c.ours];
    }
    return out;
  };
  return {
    seed,
    def,
    rnd,
    shapes: rnd.emu.emulator.shapes as RandomShapes,
    advance: (ms) => {
      for (const c of clocks) c.advance(ms);
    },
    translate,
    async both(method, a, more = {}) {
      const d = await def.call(method, a);
      const r = await rnd.call(method, renamed(method, { ...a, ...more }));
      return { d, r };
    },
    async close() {
      await def.close();
      await rnd.close();
    },
  };
}

// ---- reading an answer whatever its shape --------------------------------------------------

type Leaf = string | number | boolean;

/** Every leaf value of a tree, with the key it sits under. */
export function leaves(value: unknown, key = ''): Array<[string, Leaf]> {
  if (Array.isArray(value)) return value.flatMap((v) => leaves(v, key));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, k));
  return value === null || value === undefined ? [] : [[key, value as Leaf]];
}

/** Every [key, value] pair of a tree (values of any kind). */
export function pairs(value: unknown): Array<[string, unknown]> {
  if (Array.isArray(value)) return value.flatMap(pairs);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [[k, v] as [string, unknown], ...pairs(v)]);
  return [];
}

/** A time in any of the catalogue's formats, as epoch milliseconds (undefined when none). */
export function anyTime(v: unknown): number | undefined {
  if (typeof v === 'number') return v < 1e11 ? v * 1000 : v;
  if (typeof v !== 'string') return undefined;
  if (/^\d{12,14}$/.test(v)) return Number(v);
  if (/^\d{4}-\d\d-\d\d \d\d:\d\d/.test(v)) return Date.parse(`${v.replace(' ', 'T')}Z`);
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}
