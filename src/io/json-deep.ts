// JSON text of any value the service sent, however deeply nested. JSON.parse reads 100,000
// levels without trouble, but JSON.stringify recurses and overflows the stack long before
// that, so a hostile answer (event data nested 100,000 levels) would break `--json` output,
// NDJSON streams and any text made of the data (docs/reliability.md). stringifyJson()
// answers exactly what JSON.stringify would, through a loop with its own stack when the
// recursion gives up. Indented, only the first INDENT_DEPTH levels are: past them the text goes
// on compact (the same value), since indenting 100,000 levels takes billions of spaces.

/** Levels indented (JSON.stringify's indent); deeper ones are written compact. */
export const INDENT_DEPTH = 64;

/** A container being written: its entries, the next one, and its depth. */
interface Frame {
  close: string;
  entries: Array<[string | undefined, unknown]>;
  next: number;
  depth: number;
  wrote: boolean;
}

/** What JSON.stringify makes of a value inside a container (toJSON called, functions and undefined dropped). */
function prepared(key: string, value: unknown): unknown {
  const v = value as { toJSON?: (key: string) => unknown } | null;
  if (v !== null && typeof v === 'object' && typeof v.toJSON === 'function') return v.toJSON(key);
  if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  return value;
}

const dropped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** JSON.stringify(value, null, indent), without recursion (and indented INDENT_DEPTH levels deep at most). */
export function stringifyIteratively(value: unknown, indent = ''): string | undefined {
  const top = prepared('', value);
  if (dropped(top)) return undefined;
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = (v: unknown, depth: number): void => {
    if (v === null || typeof v !== 'object') {
      out.push(JSON.stringify(v) ?? 'null');
      return;
    }
    if (Array.isArray(v)) {
      out.push('[');
      const entries: Array<[string | undefined, unknown]> = v.map((item, i) => [undefined, prepared(String(i), item)]);
      stack.push({ close: ']', entries, next: 0, depth, wrote: false });
      return;
    }
    out.push('{');
    const entries: Array<[string | undefined, unknown]> = [];
    for (const k of Object.keys(v)) {
      const item = prepared(k, (v as Record<string, unknown>)[k]);
      if (!dropped(item)) entries.push([k, item]);
    }
    stack.push({ close: '}', entries, next: 0, depth, wrote: false });
  };
  const newline = (depth: number) => (indent && depth <= INDENT_DEPTH ? `\n${indent.repeat(depth)}` : '');
  open(top, 0);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.next >= frame.entries.length) {
      stack.pop();
      out.push(`${frame.wrote ? newline(frame.depth) : ''}${frame.close}`);
      continue;
    }
    const [key, item] = frame.entries[frame.next++];
    out.push(`${frame.wrote ? ',' : ''}${newline(frame.depth + 1)}`);
    frame.wrote = true;
    if (key !== undefined) out.push(`${JSON.stringify(key)}:${indent && frame.depth < INDENT_DEPTH ? ' ' : ''}`);
    open(dropped(item) ? null : item, frame.depth + 1);
  }
  return out.join('');
}

/**
 * JSON.stringify(value, null, indent), for data nested any number of levels. Typed as
 * JSON.stringify is: undefined (and a function) give undefined.
 */
export function stringifyJson(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return stringifyIteratively(value, indent ? ' '.repeat(Math.min(10, indent)) : '') as string;
  }
}
