// Colour helpers at the level the IO decided (chalk alone does not honour every convention).
// What they return carries our colour marked as ours (sanitize.ts): the IO's writers keep marked
// SGR sequences and drop every other escape, so a colour sequence planted in a string from the
// service is removed even when that string is painted here (its own sequences are stripped from
// the arguments first).
import { Chalk, type ChalkInstance } from 'chalk';
import type { IO } from './io.js';
import { forTerminal, markOwnSgr } from './sanitize.js';

const cache = new WeakMap<IO, ChalkInstance>();

/**
 * chalk, with every painting call's arguments cleaned and its result marked; chains (c.bold.red)
 * too. The proxy stands over an empty arrow function of its own, not over chalk's builders: those
 * define their chained styles as read-only properties, which a proxy would have to return as is.
 */
function owned<T extends object>(real: T): T {
  return new Proxy((() => {}) as unknown as T, {
    get(_t, key) {
      const value = Reflect.get(real, key);
      return typeof value === 'function' ? owned(value) : value;
    },
    apply(_t, self, args: unknown[]) {
      const clean = args.map((a) => (typeof a === 'string' ? forTerminal(a, true) : a));
      const result = Reflect.apply(real as (...a: unknown[]) => unknown, self, clean);
      if (typeof result === 'string') return markOwnSgr(result);
      return typeof result === 'function' ? owned(result) : result;
    },
  });
}

export function style(io: IO): ChalkInstance {
  let c = cache.get(io);
  if (!c || c.level !== io.colorLevel) {
    c = owned(new Chalk({ level: io.colorLevel }));
    cache.set(io, c);
  }
  return c;
}
