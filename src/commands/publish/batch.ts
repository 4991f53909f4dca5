// `sitebuilder publish` over several sites (docs/scripting.md "Many sites at once"). Each site's
// publish is started (publish_site, with KEY-SITE as its Idempotency-Key when --idempotency-key
// is given), followed with get_publish_status in its own lane of the scheduler (the floor, the
// fair share, the budget: api/scheduler.ts), and ended on its own: live, failed, refused, still
// running at --timeout or without a connection (the command that follows it again), or
// detached on Ctrl-C. The sentences are those of the one-site form (sentences.ts).
import type { Context } from '../../context.js';
import { BATCH_KEY_MAX, isIdempotencyKey } from '../../api/limits.js';
import { ApiError, CliError, ExitCode, InterruptedError, PendingError, UsageError } from '../../errors.js';
import { formatElapsed } from '../../io/spinner.js';
import { DEFAULT_CONCURRENCY } from '../shared/fleet/options.js';
import type { SiteOutcome } from '../shared/fleet/outcome.js';
import { notStartedOutcome, runFleet, withBatchGate, type SiteRow } from '../shared/fleet/run.js';
import { sb } from '../../io/shell.js';
import { gatherSites } from '../shared/fleet/sites.js';
import { isLive, publishRecord, type PublishRecord } from '../../service/publish.js';
import {
  DEFAULT_TIMEOUT_MS,
  liveWithoutAddress,
  notLiveSentence,
  publishRefusal,
  stillRunningSentence,
} from './sentences.js';
import type { PublishOptions } from './options.js';
import { publishWatchCommand, waitForPublish } from './wait.js';

/** The key of one site's publish_site when the batch was given one. */
export function siteKey(key: string | undefined, site: string): string | undefined {
  return key === undefined ? undefined : `${key}-${site}`;
}

/** The fields every site's NDJSON record has. */
function recordOf(r: Partial<PublishRecord> | undefined, key: string | undefined): Record<string, unknown> {
  return {
    url: r?.url ?? null,
    status: r?.status ?? null,
    deploymentId: r?.deploymentId ?? null,
    error: r?.error ?? null,
    idempotencyKey: key ?? null,
  };
}

async function publishOne(ctx: Context, o: PublishOptions, site: string, row: SiteRow): Promise<SiteOutcome> {
  const client = ctx.api();
  const startedAt = ctx.clock.now();
  let key = siteKey(o.idempotencyKey, site);
  const out = (outcome: string, exitCode: number, more: Partial<SiteOutcome> & { r?: Partial<PublishRecord> }) => ({
    site,
    outcome,
    exitCode,
    // The address only where the site is live (or, with --no-wait, where it will be).
    ref: outcome === 'live' || outcome === 'started' ? (more.r?.url ?? '') : '',
    note: more.note,
    next: more.next,
    record: recordOf(more.r, key),
    elapsedMs: ctx.clock.now() - startedAt,
  });
  const watch = [publishWatchCommand(site)];
  let first: PublishRecord;
  try {
    const res = await client.call('publish_site', { projectId: site }, { idempotencyKey: key, signal: ctx.signal });
    key = res.idempotencyKey ?? key;
    first = publishRecord(site, res.envelope.data, { running: true });
  } catch (err) {
    if (ctx.signal.aborted)
      return out('detached', ExitCode.interrupted, {
        note: `Interrupted while the publish of ${site} was being started; it may have started.`,
        next: watch,
      });
    if (!(err instanceof CliError)) throw err;
    const e = err instanceof ApiError ? publishRefusal(err, site) : err;
    return out(err instanceof ApiError ? 'refused' : 'failed', e.exitCode, { note: e.message });
  }
  const started = { ...first };
  if (o.wait === false)
    return out('started', ExitCode.ok, {
      r: first,
      note: first.url ? undefined : `The service’s answer to publish_site named no address for ${site}.`,
      next: watch,
    });
  row.state(first.status ?? 'publishing');
  let record: PublishRecord = first;
  try {
    const result = await waitForPublish({
      client,
      clock: ctx.clock,
      siteId: site,
      timeoutMs: o.timeout ?? DEFAULT_TIMEOUT_MS,
      signal: ctx.signal,
      started,
      afterMalformed: ` The publish of ${site} was started and may go on; see \`${sb('publish logs', site)}\`.`,
      onStatus: (r) => {
        record = r;
        row.state(r.status ?? 'publishing');
      },
      reconnectForMs: o.reconnectFor,
      say: (line, kind) => row.say(line, kind),
      lane: `publish:${site}`,
      firstReadAfterFloor: true,
    });
    record = result.record;
    if (result.timedOut)
      return out('pending', ExitCode.pending, {
        r: record,
        note: stillRunningSentence(site, formatElapsed(ctx.clock.now() - startedAt)),
        next: watch,
      });
  } catch (err) {
    if (err instanceof InterruptedError)
      return out('detached', ExitCode.interrupted, {
        r: record,
        note: `Stopped following; the publish of ${site} goes on.`,
        next: watch,
      });
    if (err instanceof PendingError)
      return out('pending', ExitCode.pending, { r: record, note: err.message, next: watch });
    if (err instanceof CliError) return out('failed', err.exitCode, { r: record, note: err.message });
    throw err;
  }
  if (!isLive(record))
    return out('failed', ExitCode.failure, {
      r: record,
      note: notLiveSentence(site, record),
      next: [sb('publish logs', site)],
    });
  return out('live', ExitCode.ok, { r: record, note: record.url ? undefined : liveWithoutAddress(site) });
}

export async function runPublishBatch(o: PublishOptions, given: string[], ctx: Context): Promise<number> {
  if (o.idempotencyKey !== undefined && !isIdempotencyKey(o.idempotencyKey, BATCH_KEY_MAX))
    throw new UsageError(
      'With several sites, --idempotency-key takes at most 200 characters (each site sends KEY-SITE).',
    );
  return withBatchGate(ctx, async (gate) => {
    const sites = await gatherSites(ctx, given, o, (args) => `sitebuilder publish ${args}`);
    if (o.idempotencyKey !== undefined) {
      const long = sites.find((s) => !isIdempotencyKey(siteKey(o.idempotencyKey, s) as string));
      if (long)
        throw new UsageError(
          '--idempotency-key is too long for these site ids: KEY-SITE must stay within 255 characters.',
        );
    }
    if (sites.length === 0) {
      ctx.io.info(`Workspace ${o.workspace} has no site; nothing to publish.`);
      return ExitCode.ok;
    }
    return runFleet(ctx, gate, {
      title: 'Publishing',
      again: (ids) => sb('publish', ...(ids ?? ['-'])),
      sites,
      concurrency: o.concurrency ?? DEFAULT_CONCURRENCY,
      failFast: o.failFast,
      work: (site, row) => publishOne(ctx, o, site, row),
      notStarted: (site, why) => ({
        ...notStartedOutcome(site, why, 'Not published'),
        next: [sb('publish', site)],
        record: recordOf(undefined, siteKey(o.idempotencyKey, site)),
      }),
    });
  });
}
