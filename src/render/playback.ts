// The pretty view's playback: the service is polled every few seconds (docs/real-service.md
// "Rendering a run"), so the text of one answer is played back word by word over the wait until
// the next one, and whatever is left when the next answer comes is printed at once: never slower
// than the service. Time comes from the injected clock.
//
// Text comes as rows that fit the terminal: a line of plain text cut between words, or the rows
// of the agent's Markdown as rendered so far (markdown/stream.ts), which grow as it streams.
// show-rows.ts writes them, rewriting the row being played and redrawing rows that changed while
// they are still on the screen. A resize while text plays lays out the rest anew at the new
// width, from the letters already shown (playing.ts).
import type { Clock } from '../clock.js';
import { append } from './append.js';
import type { PlaybackOutput, Playing } from './playing.js';
import { rowWords } from './row-words.js';
import { rowAt, showRows, syncRows } from './show-rows.js';
import { lineSource, type RowSource } from './text-rows.js';

export type { PlaybackOutput } from './playing.js';
export { type RowSource, safeWidth, wrapRows } from './text-rows.js';

/** Rows printed at once before the event loop gets a turn (a Ctrl-C among them). */
const ROWS_A_SLICE = 400;

/** How long the playback runs before the event loop gets a turn, when it has no wait of its own. */
const SLICE_MS = 20;

/** Words counted to set the pace: more than this in one wait all play at the fastest pace anyway. */
const WORDS_COUNTED = 20_000;

export const PLAYBACK = {
  /** The slowest pace: a word every this many ms, even when the wait is long. */
  maxWordMs: 150,
  /** Shortest step between two writes; faster paces show several words a step. */
  minStepMs: 40,
  /** The part of the wait the playback may fill (it ends before the next poll). */
  share: 0.9,
} as const;

export type PlayItem =
  | { kind: 'text'; text: string }
  | { kind: 'rows'; source: RowSource }
  | { kind: 'other'; emit: () => void };

export class Playback {
  private queue: PlayItem[] = [];
  /** The first item of `queue` not taken yet (shift() on a long queue costs its length each time). */
  private head = 0;
  private current?: Playing;

  constructor(
    private readonly clock: Clock,
    private readonly out: PlaybackOutput,
    private readonly redraw: boolean,
  ) {}

  push(items: PlayItem[]): void {
    append(this.queue, items);
  }

  /** Everything known now, at once: a text still coming stays current, to go on later. */
  flush(): void {
    for (;;) {
      if (!this.current && !this.start()) return;
      const c = this.current as Playing;
      this.sync(c);
      do if (rowAt(c) !== undefined) this.showRows(c, Number.POSITIVE_INFINITY);
      while (this.layOut(c));
      if (!c.source.done) return;
      this.current = undefined;
    }
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
    let since = performance.now();
    for (;;) {
      const shown = this.step(group);
      if (shown === 0 || !this.more()) break;
      const pause = Math.round(perWord * shown);
      // Ctrl-C: what is left is for the caller to print, or not (flush(), drop()).
      if (signal?.aborted) return;
      if (this.clock.now() + pause >= until) break;
      // Steps too short to wait for still let the event loop in now and then (a Ctrl-C).
      if (pause === 0 && performance.now() - since > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
        if (signal?.aborted) return;
      }
      if (pause > 0) {
        since = performance.now();
        try {
          await this.clock.sleep(pause, signal);
        } catch {
          if (signal?.aborted) return;
          break;
        }
      }
    }
    await this.flushInSlices(signal);
  }

  /** flush(), a slice of rows at a time with a turn of the event loop between: a long text lets Ctrl-C in. */
  private async flushInSlices(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (!this.current && !this.start()) return;
      const c = this.current as Playing;
      this.sync(c);
      while (rowAt(c) !== undefined || this.layOut(c)) {
        this.showRows(c, Number.POSITIVE_INFINITY, ROWS_A_SLICE);
        if (rowAt(c) === undefined && !this.laysOut(c.source)) break;
        await new Promise((resolve) => setImmediate(resolve));
        if (signal?.aborted) return;
        this.sync(c);
      }
      if (!c.source.done) return;
      this.current = undefined;
    }
  }

  /** Rows known and not shown yet (the items queued after the current text count one row each at least). */
  rowsLeft(): number {
    let n = this.queue.length - this.head;
    const c = this.current;
    if (c) n += Math.max(0, c.rows.length - (c.base + c.shown.length));
    return n;
  }

  /** Leaves out everything not shown yet (after Ctrl-C, when printing it would keep the command from ending). */
  drop(): void {
    this.queue = [];
    this.head = 0;
    this.current = undefined;
  }

  /** Whether anything is left to show now. */
  private more(): boolean {
    return this.head < this.queue.length || (this.current !== undefined && rowAt(this.current) !== undefined);
  }

  /** Takes the next item: non-text prints at once; a text becomes current. False when the queue is empty. */
  private start(): boolean {
    for (;;) {
      const item = this.queue[this.head++];
      if (this.head >= this.queue.length) {
        this.queue = [];
        this.head = 0;
      }
      if (!item) return false;
      if (item.kind === 'other') {
        item.emit();
        continue;
      }
      const source = item.kind === 'text' ? lineSource(item.text) : item.source;
      const width = this.width();
      const { rows } = source.rows(width);
      this.current = {
        source,
        version: source.version,
        width,
        rows,
        base: 0,
        shown: [],
        words: 0,
        whole: true,
        before: 0,
        mark: -1,
      };
      return true;
    }
  }

  private width(): number {
    return this.out.columns() - 1;
  }

  /** Shows up to `n` more words of `c` (show-rows.ts); how many words it showed. */
  private showRows(c: Playing, n: number, maxRows?: number): number {
    return showRows(c, this.out, this.redraw, n, maxRows);
  }

  /** A long text laid out as it is shown (text-rows.ts): lays out a slice more and takes its rows; false when none is left. */
  private layOut(c: Playing): boolean {
    if (!c.source.more?.(this.width())) return false;
    this.sync(c);
    return true;
  }

  /** Whether a source still has text to lay out at the current width (after rows() laid out what it does at once). */
  private laysOut(source: RowSource): boolean {
    return (source.pending?.(this.width()) ?? 0) > 0;
  }

  /** Brings the current text up to date (show-rows.ts). */
  private sync(c: Playing): void {
    syncRows(c, this.width(), this.out, this.redraw);
  }

  /** Shows up to `n` more words (non-text items on the way print at once); how many words it showed. */
  private step(n: number): number {
    let left = n;
    while (left > 0) {
      if (!this.current && !this.start()) break;
      const c = this.current as Playing;
      this.sync(c);
      if (rowAt(c) === undefined) {
        if (this.layOut(c)) continue;
        if (!c.source.done) break;
        this.current = undefined;
        continue;
      }
      left -= this.showRows(c, left);
    }
    return n - left;
  }

  /** The words left to play, counted up to WORDS_COUNTED (a long text is not walked whole to set a pace). */
  private wordsLeft(): number {
    let n = 0;
    const c = this.current;
    if (c) {
      this.sync(c);
      // A text longer than what is laid out at once has more words than are counted.
      if (this.laysOut(c.source)) return WORDS_COUNTED;
      for (let i = c.base + c.shown.length - (c.whole ? 0 : 1); i < c.rows.length && n < WORDS_COUNTED; i++)
        n += rowWords(c.rows[i] as string);
      if (!c.whole) n -= c.words;
    }
    const width = this.width();
    for (let i = this.head; i < this.queue.length && n < WORDS_COUNTED; i++) {
      const item = this.queue[i] as PlayItem;
      if (item.kind === 'text') n += item.text.match(/\S+/g)?.length ?? 0;
      else if (item.kind === 'rows') {
        const { rows } = item.source.rows(width);
        if (this.laysOut(item.source)) return WORDS_COUNTED;
        for (let r = 0; r < rows.length && n < WORDS_COUNTED; r++) n += rowWords(rows[r] as string);
      }
    }
    return Math.min(n, WORDS_COUNTED);
  }
}
