// What a batch prints (docs/scripting.md "Many sites at once"). On a terminal: a live block at
// the bottom of stderr with one row per site under way (site, state, elapsed) and a summary row,
// and one row per site on stdout as it ends (site, outcome, elapsed, address or job id), then a
// summary. Piped: one tab-separated line per site as it ends (site, outcome, address or job id,
// exit code), and what a person must know (a failure, the command that answers) on stderr. When
// stderr is a terminal that cannot hold the live block (stdout is a pipe whose reader prints to
// it, IO.canRedraw), the progress there is appended instead: a line per site as it ends.
// With --json: one NDJSON record per site as it ends, then one summary record.
import type { Context } from '../../../context.js';
import { ExitCode } from '../../../errors.js';
import { sanitizeInline } from '../../../io/sanitize.js';
import { formatElapsed } from '../../../io/spinner.js';
import { style } from '../../../io/style.js';
import { displayWidth, padWidth, wrapLine } from '../../../io/width.js';
import { isFailure, type SiteOutcome, worstExit } from './outcome.js';
import { liveRow, ROW_INDENT, summaryRows, timed } from './rows.js';

export interface ReportOptions {
  /** Of the summary row: "Publishing", "Chat with". */
  title: string;
  /** The command that starts the sites not started: the ids as arguments, or without them on stdin (`sitebuilder publish -`). */
  again(ids?: string[]): string;
  total: number;
  /** Where the batch's whole elapsed time starts. */
  startedAt: number;
}

export interface Totals {
  calls: number;
  rateLimited: number;
  interrupted: boolean;
}

interface Running {
  site: string;
  state: string;
  startedAt: number;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TICK_MS = 250;

export class FleetReport {
  private readonly running = new Map<string, Running>();
  private readonly ended: SiteOutcome[] = [];
  private readonly counts = new Map<string, number>();
  private readonly live: boolean;
  /** stdout is not the terminal, stderr is, and the live block cannot be drawn there: progress as lines. */
  private readonly appended: boolean;
  private readonly siteWidth: number;
  private timer?: NodeJS.Timeout;
  private frame = 0;

  constructor(
    private readonly ctx: Context,
    private readonly o: ReportOptions,
    sites: string[],
  ) {
    const { io } = ctx;
    this.live = io.canAnimate && io.canRedraw;
    this.appended = io.canAnimate && !this.live && !io.stdoutIsTTY;
    if (this.appended) io.errLine(`${o.title} ${o.total} site${o.total === 1 ? '' : 's'}; a line for each as it ends.`);
    this.siteWidth = Math.min(32, Math.max(4, ...sites.map((s) => displayWidth(sanitizeInline(s)))));
    // A reader that stops early (`| head -1`) ends the process: its code is the worst of the
    // sites that ended, and 8 (still pending) for any site not followed to its end.
    io.onReaderGone = () => {
      if (this.timer) clearInterval(this.timer);
      io.liveBlock(undefined);
      const open = this.o.total - this.ended.length;
      const code = worstExit([...this.ended.map((e) => e.exitCode), ...(open > 0 ? [ExitCode.pending] : [])]);
      io.info(
        `Standard output was closed: ${this.ended.length} of ${this.o.total} site${this.o.total === 1 ? '' : 's'} ended${open > 0 ? `, ${open} not followed to the end` : ''}. Exit ${code}.`,
      );
      return code;
    };
    if (this.live) {
      this.timer = setInterval(() => {
        this.frame++;
        this.draw();
      }, TICK_MS);
      this.timer.unref();
    }
  }

  begin(site: string): void {
    this.running.set(site, { site, state: 'starting', startedAt: this.ctx.clock.now() });
    this.draw();
  }

  state(site: string, state: string): void {
    const r = this.running.get(site);
    if (!r || r.state === state) return;
    r.state = state;
    this.draw();
  }

  end(out: SiteOutcome): void {
    this.running.delete(out.site);
    this.ended.push(out);
    this.counts.set(out.outcome, (this.counts.get(out.outcome) ?? 0) + 1);
    const { io } = this.ctx;
    const site = sanitizeInline(out.site);
    if (io.json) {
      io.printJsonLine({
        type: 'site',
        siteId: out.site,
        outcome: out.outcome,
        exitCode: out.exitCode,
        ...out.record,
        note: out.note ?? null,
        next: out.next ?? [],
        elapsedMs: out.elapsedMs,
      });
    } else if (!io.stdoutIsTTY) {
      io.outLine([site, out.outcome, sanitizeInline(out.ref), String(out.exitCode)].join('\t'));
      if (this.appended)
        io.errLine(this.row(this.mark(out), site, { ...out, ref: `${this.ended.length}/${this.o.total}` }));
      if (out.exitCode !== 0 && out.note) io.errLine(`${site}: ${out.note}`);
      if (out.exitCode !== 0) for (const c of out.next ?? []) io.errLine(`  ${c}`);
    } else {
      io.outLine(this.row(this.mark(out), site, out));
      // A site not started is one row: the summary gives the command that starts them all.
      if (out.outcome !== 'not-started') {
        if (out.note && (out.exitCode !== 0 || !out.ref)) io.errLine(`  ${out.note}`);
        // errLine's wrapping takes a command that only fits without the indent to the left edge (width.ts).
        for (const cmd of out.next ?? []) io.errLine(`${ROW_INDENT}${cmd}`);
      }
    }
    this.draw();
  }

  /** An address or run under its row on stdout (not wrapped there): indented, or at the left edge where only that keeps it on one line. */
  private indented(text: string): string {
    return displayWidth(ROW_INDENT + text) <= this.ctx.io.columns ? `${ROW_INDENT}${text}` : text;
  }

  /** ✓ ended well, ✗ failed, ? waits for a reply or a confirmation, … still under way. */
  private mark(out: SiteOutcome): string {
    const c = style(this.ctx.io);
    if (out.exitCode === 0) return c.green('✓');
    if (isFailure(out.exitCode)) return c.red('✗');
    return c.yellow(out.exitCode === ExitCode.pending || out.exitCode === ExitCode.interrupted ? '…' : '?');
  }

  /**
   * A site's row on a terminal: mark, site, outcome, elapsed, and its address or run. Where that
   * is wider than the terminal, the address or run goes on a line of its own (it is never cut),
   * and the columns lose their padding if they still do not fit; where even that is too wide (a
   * long id at 40 columns), the words go on as many lines as they need, never cut.
   */
  private row(mark: string, site: string, out: SiteOutcome): string {
    const ref = sanitizeInline(out.ref);
    const elapsed = formatElapsed(out.elapsedMs);
    const head = `${padWidth(site, this.siteWidth)}  ${timed(out.outcome, elapsed)}`;
    const cols = this.ctx.io.columns;
    // The mark is one column and a space.
    if (2 + displayWidth(head) + (ref ? 2 + displayWidth(ref) : 0) <= cols)
      return `${mark} ${head}${ref ? `  ${ref}` : ''}`;
    const first =
      2 + displayWidth(head) <= cols
        ? `${mark} ${head}`
        : wrapLine(`${mark} ${site} ${out.outcome} ${elapsed}`, cols, ROW_INDENT.length).join('\n');
    return ref ? `${first}\n${this.indented(ref)}` : first;
  }

  /** How many sites ended so far, and with what. */
  get outcomes(): readonly SiteOutcome[] {
    return this.ended;
  }

  /** The summary; returns the process's exit code. */
  finish(t: Totals): number {
    if (this.timer) clearInterval(this.timer);
    this.ctx.io.liveBlock(undefined);
    const exitCode = t.interrupted ? ExitCode.interrupted : worstExit(this.ended.map((o) => o.exitCode));
    const elapsedMs = this.ctx.clock.now() - this.o.startedAt;
    const { io } = this.ctx;
    if (io.json) {
      io.printJsonLine({
        type: 'summary',
        sites: this.o.total,
        outcomes: Object.fromEntries(this.counts),
        exitCode,
        interrupted: t.interrupted,
        calls: t.calls,
        rateLimited: t.rateLimited,
        elapsedMs,
      });
      return exitCode;
    }
    const counts = [...this.counts].map(([k, n]) => `${n} ${k}`).join(', ');
    const limits =
      t.rateLimited === 0
        ? 'no rate limit met'
        : `${t.rateLimited} rate-limited (429) answer${t.rateLimited === 1 ? '' : 's'} waited out`;
    const line = `${this.o.total} site${this.o.total === 1 ? '' : 's'} in ${formatElapsed(elapsedMs)}: ${counts || 'none ended'}; ${t.calls} call${t.calls === 1 ? '' : 's'}, ${limits}${t.interrupted ? '; interrupted' : ''}. Exit ${exitCode}.`;
    if (io.stderrIsTTY) io.errLine(line);
    else io.info(line);
    const notStarted = this.ended.filter((o) => o.outcome === 'not-started').map((o) => o.site);
    if (notStarted.length > 0) {
      const n = notStarted.length;
      const said = `${n} site${n === 1 ? ' was' : 's were'} not started (outcome not-started above)`;
      // On a terminal, a command with their ids when it is short enough to copy; else the stdin form.
      const named = this.o.again(notStarted);
      if (io.stdoutIsTTY && displayWidth(named) <= 3 * io.columns) io.errLine(`${said}; to start them: ${named}`);
      else io.errLine(`${said}; give their ids, one a line, to: ${this.o.again()}`);
    }
    return exitCode;
  }

  private draw(): void {
    if (!this.live) return;
    const { io, clock } = this.ctx;
    const now = clock.now();
    const c = style(io);
    // The block is drawn on stderr: its width.
    const cols = io.stderr.columns ?? io.columns;
    const rows = io.stderr.rows;
    const room = Math.max(1, (typeof rows === 'number' && rows > 3 ? rows : 24) - 2);
    const running = [...this.running.values()];
    const shown = running.length > room ? running.slice(0, room - 1) : running;
    const lines = shown.map((r) =>
      liveRow(sanitizeInline(r.site), sanitizeInline(r.state), formatElapsed(now - r.startedAt), this.siteWidth, cols),
    );
    if (shown.length < running.length) lines.push(`  … and ${running.length - shown.length} more under way`);
    const toStart = this.o.total - this.ended.length - running.length;
    const parts = [...this.counts].map(([k, n]) => `${n} ${k}`);
    if (running.length) parts.push(`${running.length} under way`);
    if (toStart > 0) parts.push(`${toStart} to start`);
    const spin = c.cyan(FRAMES[this.frame % FRAMES.length]);
    const head = `${spin} ${this.o.title} ${this.o.total} site${this.o.total === 1 ? '' : 's'}:`;
    lines.push(...summaryRows(head, parts, formatElapsed(now - this.o.startedAt), cols));
    io.liveBlock(lines);
  }
}
