// The pretty view's playback: the service is polled every few seconds (docs/real-service.md
// "Rendering a run"), so the text of one answer is played back word by word over the wait until
// the next one, and whatever is left when the next answer comes is printed at once: never slower
// than the service. Time comes from the injected clock.
//
// A line is cut into rows that fit the terminal, and a row being played is rewritten in place
// (cursor up one row, clear it, print it longer), always ending with a newline so that the live
// block below it (IO.liveBlock) can clear and redraw its own rows. A resize while a line plays
// cuts the rest of it anew (refit). Where the terminal cannot redraw, lines are played whole,
// one after the other.
import type { Clock } from '../clock.js';

export const PLAYBACK = {
  /** The slowest pace: a word every this many ms, even when the wait is long. */
  maxWordMs: 150,
  /** Shortest step between two writes; faster paces show several words a step. */
  minStepMs: 40,
  /** The part of the wait the playback may fill (it ends before the next poll). */
  share: 0.9,
} as const;

/** Columns a string takes, never under-estimated: every code point from U+1100 up counts as two. */
export function safeWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += (ch.codePointAt(0) ?? 0) >= 0x1100 ? 2 : 1;
  return w;
}

/** A line cut into rows of at most `width` columns, between words where it can (a longer word is cut). */
export function wrapRows(text: string, width: number): string[] {
  const max = Math.max(1, width);
  const rows: string[] = [];
  let row = '';
  for (const token of text.match(/\s*\S+/g) ?? [text]) {
    if (row && safeWidth(row + token) > max) {
      rows.push(row);
      row = token.trimStart();
    } else row += token;
    while (safeWidth(row) > max) {
      let cut = '';
      for (const ch of row) {
        if (safeWidth(cut + ch) > max) break;
        cut += ch;
      }
      rows.push(cut);
      row = row.slice(cut.length);
    }
  }
  if (row || rows.length === 0) rows.push(row);
  return rows;
}

const wordsOf = (row: string): string[] => row.match(/\s*\S+/g) ?? [];

export type PlayItem = { kind: 'text'; text: string } | { kind: 'other'; emit: () => void };

interface Playing {
  rows: string[];
  row: number;
  /** Words of the current row already on screen. */
  shown: number;
  /** The width the rows were cut to. */
  width: number;
}

export class Playback {
  private queue: PlayItem[] = [];
  private current?: Playing;

  constructor(
    private readonly clock: Clock,
    /** Writes text; `rewrite`: it replaces the row written last (IO.rewriteLastRow). */
    private readonly write: (text: string, rewrite?: boolean) => void,
    private readonly columns: () => number,
    private readonly redraw: boolean,
  ) {}

  push(items: PlayItem[]): void {
    this.queue.push(...items);
  }

  /** Everything still held back, at once. */
  flush(): void {
    this.finishCurrent();
    for (const item of this.queue.splice(0)) this.whole(item);
  }

  /** Plays what is queued until `until`; the rest is printed at once when time runs out or the signal aborts. */
  async play(until: number, signal?: AbortSignal): Promise<void> {
    const words = this.wordsLeft();
    if (words === 0) {
      this.flush();
      return;
    }
    const perWord = Math.min(PLAYBACK.maxWordMs, ((until - this.clock.now()) * PLAYBACK.share) / words);
    const group = perWord >= PLAYBACK.minStepMs ? 1 : Math.ceil(PLAYBACK.minStepMs / Math.max(perWord, 1));
    for (;;) {
      const shown = this.step(group);
      if (!this.current && this.queue.length === 0) return;
      const pause = Math.round(perWord * shown);
      if (signal?.aborted || this.clock.now() + pause >= until) break;
      if (pause > 0) {
        try {
          await this.clock.sleep(pause, signal);
        } catch {
          break;
        }
      }
    }
    this.flush();
  }

  /** Shows up to `n` more words (non-text lines on the way print at once); how many words it showed. */
  private step(n: number): number {
    let left = n;
    while (left > 0) {
      if (!this.current) {
        const item = this.queue.shift();
        if (!item) break;
        if (item.kind === 'other' || !this.redraw || wordsOf(item.text).length === 0) {
          this.whole(item);
          if (item.kind === 'text' && !this.redraw) return Math.max(1, wordsOf(item.text).length);
          continue;
        }
        const width = this.columns() - 1;
        this.current = { rows: wrapRows(item.text, width), row: 0, shown: 0, width };
      }
      this.refit();
      const c = this.current;
      if (!c) continue;
      const words = wordsOf(c.rows[c.row]);
      const next = Math.min(words.length, c.shown + left);
      left -= next - c.shown;
      this.write(`${words.slice(0, next).join('')}\n`, c.shown > 0);
      c.shown = next;
      if (c.shown >= words.length) {
        c.row++;
        c.shown = 0;
        if (c.row >= c.rows.length) this.current = undefined;
      }
    }
    return n - left;
  }

  /**
   * The terminal's width changed (SIGWINCH) while a line plays: what is left of it is cut anew.
   * The row on screen goes on being rewritten while it still fits one row; once the terminal has
   * wrapped it onto two, it stays as it is and the rest follows on new rows.
   */
  private refit(): void {
    const c = this.current;
    const width = this.columns() - 1;
    if (!c || width === c.width) return;
    const words = wordsOf(c.rows[c.row]);
    const shown = words.slice(0, c.shown).join('');
    const rest = [words.slice(c.shown).join(''), ...c.rows.slice(c.row + 1)]
      .map((r) => r.trim())
      .filter(Boolean)
      .join(' ');
    if (c.shown > 0 && safeWidth(shown) <= width)
      this.current = { rows: wrapRows(rest ? `${shown} ${rest}` : shown, width), row: 0, shown: c.shown, width };
    else this.current = rest ? { rows: wrapRows(rest, width), row: 0, shown: 0, width } : undefined;
  }

  private finishCurrent(): void {
    this.refit();
    const c = this.current;
    if (!c) return;
    this.current = undefined;
    this.write(`${c.rows[c.row]}\n`, c.shown > 0);
    for (const row of c.rows.slice(c.row + 1)) this.write(`${row}\n`);
  }

  /** At once: a text line cut into rows as when played (where the terminal redraws), anything else as it prints. */
  private whole(item: PlayItem): void {
    if (item.kind === 'other') item.emit();
    else if (this.redraw) this.write(`${wrapRows(item.text, this.columns() - 1).join('\n')}\n`);
    else this.write(`${item.text}\n`);
  }

  private wordsLeft(): number {
    let n = 0;
    if (this.current) {
      const c = this.current;
      n += wordsOf(c.rows[c.row]).length - c.shown;
      for (const row of c.rows.slice(c.row + 1)) n += wordsOf(row).length;
    }
    for (const item of this.queue) if (item.kind === 'text') n += wordsOf(item.text).length;
    return n;
  }
}
