// The live block at the bottom of stderr (a spinner, a task list above it): drawn below what
// is written, lifted out of the way of each write and drawn again, cut to the terminal's width
// and height, redrawn at once on a resize. The IO object (io.ts) owns one and decides when.
import type { Writable } from 'node:stream';
import type { SecretMask } from './mask.js';
import { forTerminal } from './sanitize.js';
import { displayWidth, fitWidth } from './width.js';

/**
 * A size a terminal can be redrawn in. A terminal may say 0 × 0 (`stty cols 0`, a pty nobody
 * sized yet) or something absurd; redrawing there (a spinner clearing the lines it wrapped
 * onto) has no sensible meaning, so such a terminal gets lines appended instead.
 */
export const saneSize = (n: number | undefined, min: number): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= min && n <= 10_000;

/** Goes back to the start of the status line and clears it. */
const CLEAR_LINE = '\r\u001b[2K';
/** Cursor up one row, to its first column, and clear it: the one cursor move of the run view's playback. */
export const REWRITE_ROW = '\u001b[1A\r\u001b[2K';

/** Columns a terminal takes to echo Ctrl-C (`^C`) at the cursor. */
export const CTRL_C_ECHO = 2;

/** What the block needs of the IO object that holds it. */
export interface BlockHost {
  readonly stderr: Writable & { columns?: number; rows?: number };
  /** stderr can be redrawn in place (IO.canRedraw). */
  readonly canRedraw: boolean;
  /** The last text written did not end its line: the block is not drawn over it. */
  readonly midLine: boolean;
  readonly color: boolean;
  readonly secrets: SecretMask;
}

export class LiveBlock {
  /** The block as given, if any. */
  #lines: string[] | undefined;
  /** The block's rows on the screen now, and the terminal's width when they were drawn. */
  #shown: { lines: string[]; columns: number } | undefined;
  #onResize: (() => void) | undefined;

  constructor(private readonly host: BlockHost) {}

  /** A block is held: it is drawn again after each write. */
  get held(): boolean {
    return this.#lines !== undefined;
  }

  /** Rows the block takes on the screen. */
  get rows(): number {
    return this.#shown?.lines.length ?? 0;
  }

  /** Holds `lines` (undefined or []: none), drawn now, and again at each resize while held. */
  set(lines: string[] | undefined): void {
    this.#lines = lines?.length && this.host.canRedraw ? lines : undefined;
    this.draw();
    const stream = this.host.stderr as Writable & { on?: Writable['on']; off?: Writable['off'] };
    if (this.#lines && !this.#onResize && stream.on) {
      this.#onResize = () => this.draw();
      stream.on('resize', this.#onResize);
    } else if (!this.#lines && this.#onResize) {
      stream.off?.('resize', this.#onResize);
      this.#onResize = undefined;
    }
  }

  /**
   * The rows of the block cut to fit, at most the terminal's height less one. The cursor waits at
   * the end of the last row, where the terminal echoes a Ctrl-C as `^C`: that row keeps room for
   * it, or the echo would wrap, scroll, and leave a copy of the block behind once it is erased.
   */
  #fitted(): string[] {
    const { stderr, color, secrets } = this.host;
    const { columns, rows } = stderr;
    const width = (columns as number) - 1;
    const block = this.#lines ?? [];
    const lines = block.map((l, i) =>
      fitWidth(
        secrets.apply(forTerminal(l, color)).replace(/[\n\r\t]/g, ' '),
        i === block.length - 1 ? width - CTRL_C_ECHO : width,
      ),
    );
    return saneSize(rows, 2) ? lines.slice(Math.max(0, lines.length - (rows - 1))) : lines;
  }

  /** Draws the block held, in place of the one on the screen. */
  draw(): void {
    const { stderr } = this.host;
    const shown = this.#shown;
    const lines = this.#lines === undefined || this.host.midLine || !this.host.canRedraw ? undefined : this.#fitted();
    // A spinner's tick changes its last row only: that row alone is redrawn (less to send, no flicker).
    const above = shown?.lines.slice(0, -1);
    if (
      lines &&
      shown?.columns === stderr.columns &&
      above?.length === lines.length - 1 &&
      above.every((l, i) => l === lines[i])
    ) {
      stderr.write(CLEAR_LINE + (lines.at(-1) as string));
      this.#shown = { lines, columns: stderr.columns as number };
      return;
    }
    this.clear();
    // Never over a line cut short (no newline yet): it would be erased with the block.
    if (!lines) return;
    stderr.write(lines.join('\n'));
    this.#shown = { lines, columns: stderr.columns as number };
  }

  /**
   * Erases the block from the screen, leaving the cursor where its first row began. Each line
   * was drawn narrower than the terminal; one that a narrower terminal has since wrapped (as
   * tmux, VTE, iTerm2 and kitty rewrap lines on a resize) takes as many rows as it needs now.
   */
  clear(): void {
    const shown = this.#shown;
    if (!shown) return;
    this.#shown = undefined;
    const { stderr } = this.host;
    const now = stderr.columns;
    let rows = shown.lines.length;
    if (saneSize(now, 1) && now < shown.columns)
      rows = shown.lines.reduce((n, l) => n + Math.max(1, Math.ceil(displayWidth(l) / now)), 0);
    stderr.write(CLEAR_LINE + REWRITE_ROW.repeat(rows - 1));
  }
}
