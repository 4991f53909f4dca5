// The shape of an answer without its content, for `sitebuilder doctor --json` (a bug report a
// user attaches): its keys and the types of its values, never a value. The records of a list
// are merged into one shape (a key some records lack is still there, its types joined: `string
// | null`); events are merged per kind (`event`, stated, is kept: it names a kind, not data). A
// key that does not look like a field's name (a file path, an id used as a key) is not shown:
// such objects become `{ "…": "N keys" }`. Bounded in depth and size whatever the answer.
import { isRecord } from './read.js';

const MAX_DEPTH = 12;
const MAX_NODES = 4000;
/** How many records of a list are merged: enough to see keys some of them lack. */
const MERGED_RECORDS = 50;
const FIELD_NAME = /^[A-Za-z_$][\w$-]{0,63}$/;

type Shape = string | Shape[] | { [key: string]: Shape };

class Budget {
  nodes = 0;
  spend(): boolean {
    return ++this.nodes <= MAX_NODES;
  }
}

function typeWord(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value;
}

/** Two shapes of the same place as one: objects key by key, anything else as its types joined. */
function merge(a: Shape, b: Shape): Shape {
  if (isRecord(a) && isRecord(b)) {
    const out: Record<string, Shape> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? merge(out[k], v) : v;
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length && b.length ? [merge(a[0], b[0])] : a.length ? a : b;
  const words = (s: Shape) => (typeof s === 'string' ? s.split(' | ') : [Array.isArray(s) ? 'list' : 'object']);
  const all = [...new Set([...words(a), ...words(b)])];
  if (all.length === 1) return a;
  return all.sort().join(' | ');
}

function shape(value: unknown, depth: number, budget: Budget): Shape {
  if (!budget.spend()) return '…';
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    if (depth >= MAX_DEPTH) return `list of ${value.length}`;
    const items = value.slice(0, MERGED_RECORDS);
    // Events: one shape per kind, the kind kept.
    if (items.every((e) => isRecord(e) && typeof e.event === 'string')) {
      const byKind = new Map<string, Shape>();
      for (const e of items as Array<Record<string, unknown>>) {
        const s = shape(e, depth + 1, budget) as Record<string, Shape>;
        const kind = e.event as string;
        const known = byKind.get(kind);
        byKind.set(kind, known ? merge(known, s) : s);
      }
      return [...byKind].map(([kind, s]) => ({ ...(s as Record<string, Shape>), event: kind }));
    }
    return [items.map((v) => shape(v, depth + 1, budget)).reduce(merge)];
  }
  if (isRecord(value)) {
    if (depth >= MAX_DEPTH) return 'object';
    const keys = Object.keys(value);
    const named = keys.filter((k) => FIELD_NAME.test(k));
    if (named.length < keys.length && (named.length === 0 || keys.length > 40)) return { '…': `${keys.length} keys` };
    const out: Record<string, Shape> = {};
    for (const k of named.slice(0, 200)) out[k] = shape(value[k], depth + 1, budget);
    if (named.length < keys.length) out['…'] = `${keys.length - named.length} other keys`;
    return out;
  }
  return typeWord(value);
}

/** The shape of a value: keys and types, never a value. */
export function skeleton(value: unknown): Shape {
  return shape(value, 0, new Budget());
}
