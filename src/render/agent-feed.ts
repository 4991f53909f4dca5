// The agent's text in the pretty view (views.ts): with Markdown on, into the Markdown being shown
// (render/markdown/stream.ts, loaded here only then), one text until a step, a file change or any
// other line ends it; otherwise line by line. A long text is laid out as it is shown, a slice at
// a time, and after Ctrl-C a long rest is left out rather than rendered (the command ends at once).
import type { IO } from '../io/io.js';
import type * as Markdown from './markdown/index.js';
import type { PlayItem } from './playback.js';
import type { TranscriptLine } from './transcript.js';

/** After Ctrl-C, more text than this not rendered yet, or more rows than this not shown, are left out. */
const SKIPPED_BYTES = 256 * 1024;
const SKIPPED_ROWS = 2000;

export class AgentFeed {
  private md?: typeof Markdown;
  private theme?: Markdown.Theme;
  private doc?: Markdown.MarkdownStream;
  /** The texts that may not be laid out in full: the open one, and those ended since. */
  private docs: Markdown.MarkdownStream[] = [];
  /** A wait was cut short by Ctrl-C. */
  interrupted = false;

  async load(io: IO): Promise<void> {
    if (!io.markdown) return;
    this.md = await import('./markdown/index.js');
    this.theme = this.md.themeFor(io);
  }

  /** Lines to play: the agent's text into the text being shown, the rest as `other` makes them. */
  items(lines: TranscriptLine[], other: (l: TranscriptLine) => PlayItem): PlayItem[] {
    const items: PlayItem[] = [];
    for (const l of lines) {
      if (l.kind === 'text' && this.md && this.theme) {
        if (!this.doc) {
          this.doc = new this.md.MarkdownStream(this.theme);
          this.docs.push(this.doc);
          items.push({ kind: 'rows', source: this.doc });
        }
        this.doc.line(l.text);
        continue;
      }
      // Anything else between two texts ends the first: what follows is a new text.
      this.close();
      items.push(l.kind === 'text' ? { kind: 'text', text: l.text.replace(/\t/g, '    ') } : other(l));
    }
    return items;
  }

  /** The line still coming, shown as it is so far. */
  tail(text: string): void {
    this.doc?.setTail(text);
  }

  close(): void {
    this.doc?.close();
    this.doc = undefined;
  }

  /**
   * Renders what came at `width`, yielding as it goes (the run ended: all of it is shown before
   * the end line); false when the signal aborted first. Every text not laid out in full, not
   * only the one still open.
   */
  async prepare(width: number, signal?: AbortSignal): Promise<boolean> {
    for (const doc of this.docs) {
      if (await doc.prepare(width, signal)) continue;
      this.interrupted = true;
      return false;
    }
    this.docs = this.doc ? [this.doc] : [];
    return true;
  }

  /** Forgets the texts laid out in full but the open one (the playback lays out the others as it shows them). */
  forgetLaidOut(width: number): void {
    this.docs = this.docs.filter((d) => d === this.doc || d.pending(width) > 0);
  }

  /** After Ctrl-C: whether what is left (not rendered, or `rows` not shown) is too long to print now. */
  tooLongAfterInterrupt(width: number, rows: number): boolean {
    const pending = this.docs.reduce((n, d) => n + d.pending(width), 0);
    return this.interrupted && (pending > SKIPPED_BYTES || rows > SKIPPED_ROWS);
  }

  /** Leaves out the text not shown yet. */
  drop(): void {
    this.interrupted = false;
    for (const doc of this.docs) doc.drop();
    this.docs = [];
    this.doc?.drop();
    this.doc = undefined;
  }

  /** Lines of the agent's text rendered at once (a recap), or undefined where Markdown is off. */
  render(lines: string[], width: number): string[] | undefined {
    return this.md && this.theme ? this.md.renderMarkdown(lines.join('\n'), width, this.theme) : undefined;
  }

  get rendered(): boolean {
    return this.md !== undefined;
  }
}

/**
 * Whether stdout's last `rows` rows can be rewritten: a terminal that redraws (IO.canRedraw), and
 * rows still on its screen above the live block (what scrolled into the scrollback never is).
 */
export function canRewrite(io: IO, rows: number): boolean {
  const height = io.stdout.rows;
  const onScreen = typeof height !== 'number' || height < 2 || rows <= height - 1 - io.blockRows;
  return io.stdoutIsTTY && io.canRedraw && rows > 0 && onScreen;
}
