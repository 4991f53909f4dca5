// A small terminal emulator for tests: what a person would see after the bytes the CLI wrote
// to stdout and stderr (one terminal, both streams), to check that redrawing leaves no stale
// copies. It knows what the CLI may send (text, LF as CR LF, CR, cursor up, erase line, erase
// below, SGR colours) and throws on any other escape sequence. Rows wrap at the width with the
// pending-wrap rule of xterm; a resize rewraps the lines, as tmux, VTE, iTerm2 and kitty do; the
// cursor cannot leave the screen (the last `height` rows).
import { partWidth } from '../../src/io/width.js';
import { PassThrough, Writable } from 'node:stream';
import type { ColorLevel } from '../../src/io/color-level.js';
import { IO } from '../../src/io/io.js';

interface Row {
  /** One entry a column; a wide character is followed by '' for the column it covers. */
  cells: string[];
  /** The row goes on in the next one (the text wrapped there, not a newline). */
  wrapped: boolean;
}

const blank = (): Row => ({ cells: [], wrapped: false });

export class VirtualTerminal {
  private rows: Row[] = [blank()];
  private row = 0;
  private col = 0;
  /** The last column was written: the next character wraps first (xterm's pending wrap). */
  private pending = false;

  constructor(
    public columns: number,
    public readonly height = 24,
  ) {}

  /** The first row of the screen (rows above it are scrollback the cursor cannot reach). */
  private get top(): number {
    return Math.max(0, this.rows.length - this.height);
  }

  write(bytes: string): this {
    const re = /\u001b\[([0-9;]*)([A-Za-z])|\u001b(.)|([\s\S])/gu;
    for (const m of bytes.matchAll(re)) {
      if (m[4] !== undefined) this.char(m[4]);
      else if (m[3] !== undefined) throw new Error(`unexpected escape ESC ${JSON.stringify(m[3])}`);
      else this.csi(m[1], m[2]);
    }
    return this;
  }

  private csi(params: string, final: string): void {
    const n = params === '' ? 1 : Number(params);
    if (final === 'm') return;
    this.pending = false;
    if (final === 'A') this.row = Math.max(this.top, this.row - n);
    else if (final === 'K' && params === '2') this.rows[this.row] = { cells: [], wrapped: false };
    else if (final === 'J' && (params === '' || params === '0')) {
      this.rows[this.row].cells.length = Math.min(this.col, this.rows[this.row].cells.length);
      this.rows[this.row].wrapped = false;
      for (const r of this.rows.slice(this.row + 1)) Object.assign(r, blank());
    } else throw new Error(`unexpected escape CSI ${params}${final}`);
  }

  private char(ch: string): void {
    if (ch === '\n') {
      this.pending = false;
      this.col = 0;
      this.row++;
      if (this.row >= this.rows.length) this.rows.push(blank());
      return;
    }
    if (ch === '\r') {
      this.pending = false;
      this.col = 0;
      return;
    }
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f) throw new Error(`unexpected control ${JSON.stringify(ch)}`);
    const w = partWidth(ch);
    if (this.pending || this.col + w > this.columns) {
      this.rows[this.row].wrapped = true;
      this.row++;
      if (this.row >= this.rows.length) this.rows.push(blank());
      this.col = 0;
      this.pending = false;
    }
    const cells = this.rows[this.row].cells;
    while (cells.length < this.col) cells.push(' ');
    cells[this.col] = ch;
    if (w === 2) cells[this.col + 1] = '';
    this.col += w;
    if (this.col >= this.columns) {
      this.col = this.columns - 1;
      this.pending = true;
    }
  }

  /** A new width: every line made of wrapped rows is rewrapped, and the cursor follows its character. */
  resize(columns: number): this {
    const lines: Array<{ cells: string[]; cursor?: number }> = [];
    let current: { cells: string[]; cursor?: number } | undefined;
    this.rows.forEach((r, i) => {
      if (!current) {
        current = { cells: [] };
        lines.push(current);
      }
      if (i === this.row) current.cursor = current.cells.length + this.col + (this.pending ? 1 : 0);
      const cells = [...r.cells];
      if (r.wrapped) while (cells.length < this.columns) cells.push(' ');
      current.cells.push(...cells);
      if (!r.wrapped) current = undefined;
    });
    this.columns = columns;
    this.rows = [];
    for (const line of lines) {
      const start = this.rows.length;
      let row = blank();
      this.rows.push(row);
      let col = 0;
      for (const cell of line.cells) {
        if (cell === '') continue;
        const w = partWidth(cell);
        if (col + w > columns) {
          row.wrapped = true;
          row = blank();
          this.rows.push(row);
          col = 0;
        }
        row.cells[col] = cell;
        if (w === 2) row.cells[col + 1] = '';
        col += w;
      }
      if (line.cursor !== undefined) {
        this.row = start + Math.floor(line.cursor / columns);
        this.col = line.cursor % columns;
        this.pending = false;
        while (this.rows.length <= this.row) this.rows.push(blank());
      }
    }
    return this;
  }

  /** Every row, scrollback included, without trailing spaces. */
  lines(): string[] {
    const out = this.rows.map((r) =>
      r.cells
        .map((c) => c || '')
        .join('')
        .trimEnd(),
    );
    while (out.length > 1 && out[out.length - 1] === '') out.pop();
    return out;
  }

  /** The lines as written: rows the terminal wrapped are joined again. */
  logicalLines(): string[] {
    const out: string[] = [];
    let joined = '';
    for (const r of this.rows) {
      const text = r.cells.map((c) => c || '').join('');
      joined += r.wrapped ? text : text.trimEnd();
      if (!r.wrapped) {
        out.push(joined);
        joined = '';
      }
    }
    while (out.length > 1 && out[out.length - 1] === '') out.pop();
    return out;
  }

  /** The rows of the screen. */
  screen(): string[] {
    return this.lines().slice(this.top);
  }
}

/** An IO whose stdout and stderr are one terminal of `columns` × `rows`. */
export interface TerminalIO {
  io: IO;
  /** What both streams wrote, in order. */
  bytes: () => string;
  /** The terminal as it shows now: every byte written, and every resize, played in order. */
  terminal: () => VirtualTerminal;
  /** The terminal is resized: it rewraps, then the streams say the new width and emit 'resize' (SIGWINCH). */
  resize: (columns: number) => void;
}

export function terminalIO(o: { columns: number; rows?: number; dumb?: boolean; colorLevel?: ColorLevel }): TerminalIO {
  const chunks: Array<string | number> = [];
  const tty = () =>
    Object.assign(
      new Writable({
        write(chunk: Buffer | string, _enc, done) {
          chunks.push(chunk.toString());
          done();
        },
      }),
      { isTTY: true, columns: o.columns, rows: o.rows ?? 24 },
    );
  const stdout = tty();
  const stderr = tty();
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  const io = new IO({ stdin, stdout, stderr }, o.colorLevel ?? 0, { stdin: false, stdout: true, stderr: true });
  if (o.dumb) io.cursorMoves = false;
  return {
    io,
    bytes: () => chunks.filter((c) => typeof c === 'string').join(''),
    terminal() {
      const vt = new VirtualTerminal(o.columns, o.rows ?? 24);
      for (const c of chunks) typeof c === 'number' ? vt.resize(c) : vt.write(c);
      return vt;
    },
    resize(columns) {
      chunks.push(columns);
      stdout.columns = columns;
      stderr.columns = columns;
      stdout.emit('resize');
      stderr.emit('resize');
    },
  };
}
