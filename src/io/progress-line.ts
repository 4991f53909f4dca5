// The words of a progress line (an upload, a storage restore, a backup being archived): amount
// done and total, percent, the rate over the last seconds and the time left, fitted to a width
// by leaving out the least needed parts first — never cut mid-word. The live block draws it
// (spinner.ts `line`); rate.ts measures the rate.
import { byteUnit, KiB } from './bytes.js';
import { formatElapsed } from './spinner.js';
import { displayWidth, fitWidth } from './width.js';

export interface ProgressState {
  /** What is being done: "Uploading", "Restoring storage srs_1". Left out first. */
  verb: string;
  /** The item at hand (a file name): given what room is left, shortened if need be. */
  name?: string;
  /** Where in a list the item is: "2/3". */
  position?: string;
  /** Done so far and the total, in bytes or in files. */
  done: number;
  total: number;
  unit: 'bytes' | 'files';
  /** Another count beside it ("3/7 files" beside bytes). */
  also?: string;
  /** Bytes of every item together, when there are several. */
  overall?: { done: number; total: number };
  /** Units a second over the last seconds (rate.ts); undefined while not yet known. */
  rate?: number;
  /** Said instead of the rate and the time left ("waiting for the answer"). */
  note?: string;
}

const scaled = (n: number, div: number) =>
  div === 1 || div === KiB ? String(Math.round(n / div)) : (n / div).toFixed(1);

/** "45.2/120.0 MiB": both in the total's unit (io/bytes.ts). */
export function bytesPair(done: number, total: number): string {
  const [div, unit] = byteUnit(total);
  return `${scaled(done, div)}/${scaled(total, div)} ${unit}`;
}

export function bytesRate(perSecond: number): string {
  const [div, unit] = byteUnit(perSecond);
  return `${scaled(perSecond, div)} ${unit}/s`;
}

/** Whole percent, 100 only once everything is done. */
export function percent(done: number, total: number): string {
  if (total <= 0 || done >= total) return '100%';
  return `${Math.min(99, Math.floor((done / total) * 100))}%`;
}

interface Part {
  text: string;
  /** Higher stays longer. */
  keep: number;
  /** Joined to the part before it by one space, not two (the verb, position and name read as one). */
  tight?: boolean;
  /** The name: measured at its shortest while parts are left out, then given the room left. */
  name?: boolean;
}

/** The shortest a name is shown (or its whole width when less); shorter, it is left out. */
const NAME_MIN = 12;

/** The line for `width` columns: the parts that fit, most needed first, in reading order. */
export function progressText(s: ProgressState, width: number): string {
  const amount = s.unit === 'bytes' ? bytesPair(s.done, s.total) : `${s.done}/${s.total} files`;
  const left =
    s.rate && s.rate > 0 && s.done < s.total
      ? `${formatElapsed(Math.ceil((s.total - s.done) / s.rate) * 1000)} left`
      : undefined;
  const name: Part | undefined = s.name ? { text: s.name, keep: 3, tight: true, name: true } : undefined;
  const parts: Part[] = [
    { text: s.verb, keep: 1 },
    ...(s.position ? [{ text: s.position, keep: 5, tight: true }] : []),
    ...(name ? [name] : []),
    { text: amount, keep: 8 },
    ...(s.also ? [{ text: s.also, keep: 4 }] : []),
    { text: percent(s.done, s.total), keep: 9 },
    ...(s.overall ? [{ text: `${bytesPair(s.overall.done, s.overall.total)} in all`, keep: 2 }] : []),
    ...(s.note
      ? [{ text: s.note, keep: 4 }]
      : [
          ...(s.rate !== undefined && s.unit === 'bytes' ? [{ text: bytesRate(s.rate), keep: 4 }] : []),
          ...(left ? [{ text: left, keep: 6 }] : []),
        ]),
  ];
  const shortest = name ? Math.min(displayWidth(name.text), NAME_MIN) : 0;
  const join = (ps: Part[], nameText: string) => {
    let out = '';
    for (const p of ps) {
      const text = p.name ? nameText : p.text;
      if (text === '') continue;
      out += out === '' ? text : `${p.tight ? ' ' : '  '}${text}`;
    }
    return out;
  };
  const measure = (ps: Part[]) => displayWidth(join(ps, 'x'.repeat(shortest)));
  /** Columns the name may take among these parts (its separator counted). */
  const roomFor = (ps: Part[]) => width - displayWidth(join(ps, 'x')) + 1;
  let kept = parts;
  while (kept.length > 0 && measure(kept) > width) {
    const least = kept.reduce((a, b) => (b.keep < a.keep ? b : a));
    kept = kept.filter((p) => p !== least);
  }
  // The name takes the room the others leave: whole, shortened, or (dropped) back in if 8 columns are free.
  if (name && !kept.includes(name)) {
    const withName = parts.filter((p) => p === name || kept.includes(p));
    if (roomFor(withName) >= Math.min(8, displayWidth(name.text))) kept = withName;
  }
  if (!name || !kept.includes(name)) return fitWidth(join(kept, ''), width);
  const room = roomFor(kept);
  const text = displayWidth(name.text) <= room ? name.text : room >= 8 ? shorten(name.text, room) : '';
  return fitWidth(join(kept, text), width);
}

/** A name cut in its middle to `width` columns, its end (the extension) kept. */
function shorten(name: string, width: number): string {
  const tail = Math.floor((width - 1) / 2);
  const end = [...name].slice(-tail).join('');
  return `${fitWidth(name, width - 1 - displayWidth(end))}…${end}`;
}
