// Runs one piece of work on many sites (docs/scripting.md "Many sites at once"): at most
// `concurrency` at once, each started, followed and ended on its own; one site's failure is its
// own outcome and the others go on (unless --fail-fast: then no more sites start). Every call
// of the process waits for its turn at one scheduler (api/scheduler.ts), the client's gate, so
// the token's minute is shared fairly and kept. Ctrl-C (the context's signal) stops starting
// sites; each site under way reports how it stands and the command that follows it again.
import { setMaxListeners } from 'node:events';
import { CallScheduler } from '../../api/scheduler.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { FleetReport, isFailure, type SiteOutcome } from './report.js';

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
  /** The command that takes the ids of sites not started on its standard input. */
  again: string;
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

/** Runs the work on every site; returns the process's exit code (the report prints everything). */
export async function runFleet(ctx: Context, o: FleetOptions): Promise<number> {
  const client = ctx.api();
  let next = 0;
  let active = 0;
  let stopped: 'fail-fast' | undefined;
  const scheduler = new CallScheduler({
    clock: ctx.clock,
    budget: () => client.budget,
    // A site not started needs its start and one read at least; one under way, one read.
    demand: () => 2 * (o.sites.length - next) + active,
  });
  // Every call and wait of every site listens to the one signal (Ctrl-C).
  setMaxListeners(0, ctx.signal);
  const previous = client.gate;
  client.gate = scheduler;
  try {
    await o.prepare?.();
  } catch (err) {
    client.gate = previous;
    throw err;
  }
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
  try {
    await Promise.all(Array.from({ length: Math.min(o.concurrency, o.sites.length) }, worker));
    const why = ctx.signal.aborted ? 'interrupted' : 'fail-fast';
    for (const site of o.sites.slice(next)) report.end(o.notStarted(site, why));
  } finally {
    client.gate = previous;
  }
  return report.finish({
    calls: scheduler.calls,
    rateLimited: scheduler.rateLimited,
    interrupted: ctx.signal.aborted,
  });
}
