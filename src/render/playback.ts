// The pretty view's playback: the service is polled every few seconds (docs/real-service.md
// "Rendering a run"), so the text of one answer is played back word by word over the wait until
// the next one, and whatever is left when the next answer comes is printed at once: never slower
// than the service. Time comes from the injected clock.
//
// Text comes as rows that fit the terminal: a line of plain text cut between words, or the rows
// of the agent's Markdown as rendered so far (markdown/stream.ts), which grow as it streams. The
// row being played is rewritten in place (cursor up, clear, print it longer), always ending with
// a newline so that the live block below (IO.liveBlock) can clear and redraw its own rows. When
// rows already shown change (a `**` closed, a line completed), they are redrawn in place, as long
// as they are still on the screen and nothing else was written since; what scrolled into the
// scrollback is never rewritten. A resize while text plays lays out the rest anew at the new
// width, from the letters already shown. Where the terminal cannot redraw, rows are printed
// whole, one line after the other.
import type { Clock } from '../clock.js';
import { append } from './append.js';
import { freeze, type PlaybackOutput, type Playing, refit, screenRows, setRows } from './playing.js';
import { rowPrefix, rowWords } from './row-words.js';
import { lineSource, type RowSource } from './text-rows.js';

export type { PlaybackOutput } from './playing.js';
export { type RowSource, safeWidth, wrapRows } from './text-rows.js';

/** Rows printed at once before the event loop gets a turn (a Ctrl-C among them). */
const ROWS_A_SLICE = 400;

/** How long the playback runs before the event loop gets a turn, when it has no wait of its own. */
const SLICE_MS = 20;

/** Words counted to set the pace: more than this in one wait all play at the fastest pace anyway. */
const WORDS_COUNTED = 20_000;

/** Rows shown that are kept to compare with what a text becomes (a terminal shows fewer). */
const KEPT_ROWS = 500;

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
      if (this.rowAt(c) !== undefined) this.showRows(c, Number.POSITIVE_INFINITY);
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
      while (this.rowAt(c) !== undefined) {
        this.showRows(c, Number.POSITIVE_INFINITY, ROWS_A_SLICE);
        if (this.rowAt(c) === undefined) break;
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
    return this.head < this.queue.length || (this.current !== undefined && this.rowAt(this.current) !== undefined);
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

  /** The row to show next (or the one shown in part), if any. */
  private rowAt(c: Playing): string | undefined {
    const i = c.base + c.shown.length - (c.whole ? 0 : 1);
    return c.rows[i];
  }

  /** Shows up to `n` more words (non-text items on the way print at once); how many words it showed. */
  private step(n: number): number {
    let left = n;
    while (left > 0) {
      if (!this.current && !this.start()) break;
      const c = this.current as Playing;
      this.sync(c);
      if (this.rowAt(c) === undefined) {
        if (!c.source.done) break;
        this.current = undefined;
        continue;
      }
      left -= this.showRows(c, left);
    }
    return n - left;
  }

  /**
   * Shows up to `n` more words: the row shown in part goes on (rewritten), then whole rows, in
   * one write, then the first words of a row (all of it where the terminal cannot redraw). The
   * words shown (at least 1).
   */
  private showRows(c: Playing, n: number, maxRows = Number.POSITIVE_INFINITY): number {
    let left = n;
    let rows = 0;
    let text = '';
    const flush = () => {
      if (text) this.out.write(text);
      text = '';
    };
    if (!c.whole) {
      const row = this.rowAt(c) as string;
      const total = rowWords(row);
      const to = Math.min(total, c.words + left);
      const shown = to >= total ? row : rowPrefix(row, to);
      this.out.rewrite(screenRows(c.shown.at(-1) as string, this.out.columns()), `${shown}\n`);
      c.shown[c.shown.length - 1] = shown;
      left -= Math.max(1, to - c.words);
      c.words = to;
      c.whole = to >= total;
    }
    while (left > 0 && c.whole && rows++ < maxRows) {
      const row = this.rowAt(c);
      if (row === undefined) break;
      const total = rowWords(row);
      const to = this.redraw ? Math.min(total, left) : total;
      const shown = to >= total ? row : rowPrefix(row, to);
      text += `${shown}\n`;
      c.shown.push(shown);
      left -= Math.max(1, to);
      c.words = to;
      c.whole = to >= total;
    }
    flush();
    // Only the rows a terminal still shows can be redrawn: older ones need not be kept.
    if (c.shown.length > KEPT_ROWS) {
      const gone = c.shown.length - KEPT_ROWS;
      c.base += gone;
      c.shown = c.shown.slice(gone);
    }
    c.mark = this.out.writes();
    return n - left;
  }

  /** Brings the current text up to date: a new width lays out the rest anew; changed rows are redrawn. */
  private sync(c: Playing): void {
    const width = this.width();
    if (width !== c.width) {
      refit(c, width, this.out, this.redraw);
      return;
    }
    if (c.source.version === c.version) return;
    c.version = c.source.version;
    setRows(c, c.source.rows(width).rows, c.patch);
    const rows = c.rows;
    // The first row on the screen that is no longer what it shows.
    const d = c.shown.findIndex((shown, i) => {
      const row = rows[c.base + i];
      const partial = i === c.shown.length - 1 && !c.whole;
      return row === undefined || (partial ? rowPrefix(row, c.words) !== shown && row !== shown : row !== shown);
    });
    if (d < 0) return;
    if (!this.redraw) {
      // Nothing can be redrawn: the rows shown stay, and the text goes on after them.
      freeze(c);
      return;
    }
    const up = c.shown.slice(d).reduce((n, r) => n + screenRows(r, this.out.columns()), 0);
    if (!this.out.canRewrite(up, c.mark)) {
      freeze(c);
      return;
    }
    const redrawn = rows.slice(c.base + d, c.base + c.shown.length);
    const lastWords = c.whole ? Number.POSITIVE_INFINITY : c.words;
    const last = redrawn.length - 1;
    const text = redrawn.map((r, i) => (i === last && lastWords < rowWords(r) ? rowPrefix(r, lastWords) : r));
    this.out.rewrite(up, text.map((t) => `${t}\n`).join(''));
    c.whole = last < 0 || text[last] === redrawn[last];
    c.words = last < 0 ? 0 : Math.min(lastWords, rowWords(redrawn[last] as string));
    c.shown = [...c.shown.slice(0, d), ...text];
    c.mark = this.out.writes();
  }

  /** The words left to play, counted up to WORDS_COUNTED (a long text is not walked whole to set a pace). */
  private wordsLeft(): number {
    let n = 0;
    const c = this.current;
    if (c) {
      this.sync(c);
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
        for (let r = 0; r < rows.length && n < WORDS_COUNTED; r++) n += rowWords(rows[r] as string);
      }
    }
    return Math.min(n, WORDS_COUNTED);
  }
}
