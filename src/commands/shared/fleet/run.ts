// Runs one piece of work on many sites (docs/scripting.md "Many sites at once"): at most
// `concurrency` at once, each started, followed and ended on its own; one site's failure is its
// own outcome and the others go on (unless --fail-fast: then no more sites start). Every call
// of the process, from the listing of its sites (--all-sites) to its last read, waits for its
// turn at one scheduler (api/scheduler.ts), the client's gate, so the token's minute is shared
// fairly and kept, and the summary counts every call. Ctrl-C (the context's signal) stops starting
// sites; each site under way reports how it stands and the command that follows it again.
import { setMaxListeners } from 'node:events';
import { CallScheduler } from '../../../api/scheduler.js';
import type { Context } from '../../../context.js';
import { CliError, ExitCode } from '../../../errors.js';
import { sanitizeInline } from '../../../io/sanitize.js';
import { isFailure, type SiteOutcome } from './outcome.js';
import { FleetReport } from './report.js';

export type NotStartedWhy = 'interrupted' | 'fail-fast';

/** A site the batch never started (`lead`: "Not sent", "Not published"); the caller adds its record. */
export function notStartedOutcome(site: string, why: NotStartedWhy, lead: string): Omit<SiteOutcome, 'record'> {
  return {
    site,
    outcome: 'not-started',
    exitCode: why === 'interrupted' ? ExitCode.interrupted : ExitCode.pending,
    ref: '',
    note:
      why === 'interrupted' ? `${lead}: interrupted first.` : `${lead}: --fail-fast stopped the batch after a failure.`,
    elapsedMs: 0,
  };
}

export interface SiteRow {
  /** The live row's state (building, running, waiting for its turn…). */
  state(text: string): void;
  /** A line for stderr about the connection, said once for the whole batch (api/poll.ts Reconnect's say). */
  say(line: string, kind?: 'lost' | 'back'): void;
}

export interface FleetOptions {
  title: string;
  /**
   * The command that starts the sites not started: with `ids`, named as its arguments; without,
   * reading them on its standard input (`sitebuilder publish -`).
   */
  again(ids?: string[]): string;
  sites: string[];
  concurrency: number;
  failFast?: boolean;
  /**
   * What comes before any site is started (checks, a confirmation), its calls already at the
   * scheduler; a throw ends the batch with nothing started.
   */
  prepare?(): Promise<void>;
  /** One site's work; its own failures come back as its outcome. */
  work(site: string, row: SiteRow): Promise<SiteOutcome>;
  /** A site never started: interrupted, or stopped by --fail-fast. */
  notStarted(site: string, why: NotStartedWhy): SiteOutcome;
}

/** An error a site's work did not expect, as that site's outcome. */
export function failedOutcome(site: string, err: unknown, startedAt: number, now: number): SiteOutcome {
  const known = err instanceof CliError;
  const message = err instanceof Error ? err.message : String(err);
  return {
    site,
    outcome: 'failed',
    exitCode: known ? err.exitCode : ExitCode.failure,
    ref: '',
    note: known
      ? sanitizeInline(message)
      : `Unexpected error: ${sanitizeInline(message)}. Run again with --debug for details.`,
    record: { error: message },
    elapsedMs: now - startedAt,
  };
}

/** "Connection lost" once for the batch, "Connection back" once the last site that lost it has it back. */
function connectionNotices(ctx: Context) {
  let lost = 0;
  return (site: string) => {
    let lostHere = false;
    return {
      say(line: string, kind?: 'lost' | 'back') {
        if (kind === 'lost') {
          if (!lostHere && lost++ === 0) ctx.io.errLine(line);
          lostHere = true;
        } else if (kind === 'back') {
          if (lostHere && --lost === 0) ctx.io.errLine(line);
          lostHere = false;
        } else ctx.io.errLine(`${sanitizeInline(site)}: ${line}`);
      },
      done() {
        if (lostHere) lost--;
        lostHere = false;
      },
    };
  };
}

/** The one scheduler of a batch: the client's gate from the listing of its sites to its last call. */
export class BatchGate {
  /** Calls the work still needs, at least (the scheduler's demand): one while the sites are listed. */
  demand = () => 1;
  readonly scheduler: CallScheduler;

  constructor(ctx: Context) {
    const client = ctx.api();
    this.scheduler = new CallScheduler({ clock: ctx.clock, budget: () => client.budget, demand: () => this.demand() });
  }
}

/** Runs `work` with every call of the process at one scheduler; the client's own gate is back after. */
export async function withBatchGate<T>(ctx: Context, work: (gate: BatchGate) => Promise<T>): Promise<T> {
  const client = ctx.api();
  const gate = new BatchGate(ctx);
  // Every call and wait of every site listens to the one signal (Ctrl-C).
  setMaxListeners(0, ctx.signal);
  const previous = client.gate;
  client.gate = gate.scheduler;
  try {
    return await work(gate);
  } finally {
    client.gate = previous;
  }
}

/** Runs the work on every site, its calls at the batch's gate; returns the process's exit code (the report prints everything). */
export async function runFleet(ctx: Context, gate: BatchGate, o: FleetOptions): Promise<number> {
  let next = 0;
  let active = 0;
  let stopped: 'fail-fast' | undefined;
  // A site not started needs its start and one read at least; one under way, one read.
  gate.demand = () => 2 * (o.sites.length - next) + active;
  await o.prepare?.();
  const startedAt = ctx.clock.now();
  const report = new FleetReport(ctx, { title: o.title, again: o.again, total: o.sites.length, startedAt }, o.sites);
  const notices = connectionNotices(ctx);
  const worker = async () => {
    while (next < o.sites.length && !stopped && !ctx.signal.aborted) {
      const site = o.sites[next++];
      active++;
      const began = ctx.clock.now();
      report.begin(site);
      const n = notices(site);
      let out: SiteOutcome;
      try {
        out = await o.work(site, { state: (t) => report.state(site, t), say: n.say });
      } catch (err) {
        out = failedOutcome(site, err, began, ctx.clock.now());
      } finally {
        n.done();
        active--;
      }
      report.end(out);
      if (o.failFast && isFailure(out.exitCode)) stopped = 'fail-fast';
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency, o.sites.length) }, worker));
  const why = ctx.signal.aborted ? 'interrupted' : 'fail-fast';
  for (const site of o.sites.slice(next)) report.end(o.notStarted(site, why));
  return report.finish({
    calls: gate.scheduler.calls,
    rateLimited: gate.scheduler.rateLimited,
    interrupted: ctx.signal.aborted,
  });
}
