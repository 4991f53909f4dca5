// Colour helpers at the level the IO decided (chalk alone does not honour every convention).
import { Chalk, type ChalkInstance } from 'chalk';
import type { IO } from './io.js';

const cache = new WeakMap<IO, ChalkInstance>();

export function style(io: IO): ChalkInstance {
  let c = cache.get(io);
  if (!c) {
    c = new Chalk({ level: io.colorLevel });
    cache.set(io, c);
  }
  return c;
}
