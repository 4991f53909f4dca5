// Every choice of the random shapes is drawn from the seed and a label naming what is chosen
// ("name:message:createdAt", "form:text", "order:list_sites:…"), never from a stream of
// numbers consumed in call order: the same seed makes the same choice for the same thing
// whatever was asked before, so a journey replays exactly (docs/emulator.md "Random shapes").

/** FNV-1a over the text, then a murmur-style finish: 32 well-mixed bits. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A small generator for the choices that need several numbers (a shuffle). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export class Draw {
  private readonly units = new Map<string, number>();

  constructor(readonly seed: number) {}

  /** A number in [0, 1) fixed by the seed and the label. */
  unit(label: string): number {
    let u = this.units.get(label);
    if (u === undefined) {
      u = hash32(`${this.seed}\u0000${label}`) / 4_294_967_296;
      if (this.units.size < 50_000) this.units.set(label, u);
    }
    return u;
  }

  /** One of the options. */
  pick<T>(label: string, options: readonly T[]): T {
    return options[Math.floor(this.unit(label) * options.length)];
  }

  /** One of the options, by weight ([option, weight] pairs). */
  weighted<T>(label: string, options: ReadonlyArray<readonly [T, number]>): T {
    const total = options.reduce((s, [, w]) => s + w, 0);
    let at = this.unit(label) * total;
    for (const [option, w] of options) {
      if (at < w) return option;
      at -= w;
    }
    return options[options.length - 1][0];
  }

  /** True with the probability p. */
  chance(label: string, p: number): boolean {
    return this.unit(label) < p;
  }

  /** A whole number from 0 to n - 1. */
  int(label: string, n: number): number {
    return Math.floor(this.unit(label) * n);
  }

  /** A copy of the list in an order fixed by the label (Fisher–Yates). */
  shuffle<T>(label: string, list: readonly T[]): T[] {
    const out = [...list];
    const next = mulberry32(hash32(`${this.seed}\u0000${label}`));
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}
