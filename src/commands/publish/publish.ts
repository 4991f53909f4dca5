// `sitebuilder publish <site>`: starts a publish and, by default, waits until it is live, then
// prints the live address (or nothing, and a warning, when the answer names none: never an id).
// Safe in scripts: no prompt, nothing on stderr when piped except errors and warnings, exit 8 on
// --timeout, and a retried publish_site carries the same Idempotency-Key.
import type { Context } from '../../context.js';
import { ApiError, CliError, ExitCode, PendingError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { formatElapsed, startSpinner } from '../../io/spinner.js';
import { style } from '../../io/style.js';
import { defineCommand } from '../../core/define.js';
import { isBatch, refuseBatchFlags } from '../shared/fleet/options.js';
import { isLive, publishRecord, type PublishRecord } from '../../service/publish.js';
import {
  DEFAULT_TIMEOUT_MS,
  liveWithoutAddress,
  notLiveSentence,
  publishRefusal,
  stillRunningSentence,
} from './sentences.js';
import { PUBLISH_ARGS, PUBLISH_OPTIONS, type PublishOptions } from './options.js';
import { waitForPublish } from './wait.js';
import { flag, sb } from '../../io/shell.js';

export const PUBLISH_JSON_FIELDS =
  '{ siteId, running, status, url, deploymentId, startedAt, finishedAt, error, waited, idempotencyKey }: always present, ' +
  'null where the service gave nothing (url: the live address, never an id); then every other field of the service’s answer as it sent it';

type Printed = PublishRecord & { waited: boolean; idempotencyKey: string | null };

/**
 * stdout gets the live address and nothing else: with none the model can read in the answer it
 * stays empty, stderr says so, and the exit code is 1 where the address is the contract (a live
 * publish), so that `URL=$(…) && next` stops (docs/scripting.md "publish's address"). --json
 * prints the whole record either way.
 */
function printResult(ctx: Context, record: Printed, noAddress: string, contract: boolean): number {
  if (ctx.globals.json) ctx.io.printJson(record);
  else if (record.url) ctx.io.outLine(sanitizeInline(record.url));
  else ctx.io.warn(noAddress);
  return contract && !record.url ? ExitCode.failure : ExitCode.ok;
}

export async function runPublish(o: PublishOptions, ctx: Context): Promise<number> {
  const given = [...(o.site === undefined ? [] : [o.site]), ...(o.sites ?? [])];
  if (isBatch(given, o)) return (await import('./batch.js')).runPublishBatch(o, given, ctx);
  refuseBatchFlags(o);
  const siteId = ctx.site(o.site);
  const client = ctx.api();
  const started = ctx.clock.now();
  const res = await client
    .call('publish_site', { projectId: siteId }, { idempotencyKey: o.idempotencyKey, signal: ctx.signal })
    .catch((err: unknown) => {
      throw err instanceof ApiError ? publishRefusal(err, siteId) : err;
    });
  const key = res.idempotencyKey ?? null;
  const first = publishRecord(siteId, res.envelope.data, { running: true });
  if (o.wait === false) {
    printResult(
      ctx,
      { ...first, waited: false, idempotencyKey: key },
      `The service’s answer to publish_site named no address for ${siteId}; once the publish is live, \`${sb('publish status', siteId, flag('--json'))}\` shows what the service says.`,
      false,
    );
    ctx.io.info(`Publishing ${siteId}; follow it with \`${sb('publish status', siteId, flag('--wait'))}\`.`);
    return 0;
  }

  const spinner = await startSpinner(ctx.io, ctx.clock, `Publishing ${siteId}`);
  let last = first;
  const label = () => `Publishing ${siteId}${last.status ? ` (${sanitizeInline(last.status)})` : ''}`;
  let result: Awaited<ReturnType<typeof waitForPublish>>;
  try {
    result = await waitForPublish({
      client,
      clock: ctx.clock,
      siteId,
      timeoutMs: o.timeout ?? DEFAULT_TIMEOUT_MS,
      signal: ctx.signal,
      started: first,
      afterMalformed: ` The publish of ${siteId} was started and may go on; see \`${sb('publish logs', siteId)}\`.`,
      onStatus: (r) => {
        last = r;
        spinner.update(label());
      },
      reconnectForMs: o.reconnectFor,
      say: (line) => ctx.io.errLine(line),
      show: (text) => spinner.update(text ?? label()),
    });
  } catch (err) {
    // Given up without a connection: the status document as last known, as at --timeout.
    if (ctx.globals.json && err instanceof PendingError)
      ctx.io.printJson({ ...last, waited: true, idempotencyKey: key });
    throw err;
  } finally {
    spinner.stop();
  }
  const record = { ...result.record, waited: true, idempotencyKey: key };
  const elapsed = formatElapsed(ctx.clock.now() - started);
  if (result.timedOut) {
    if (ctx.globals.json) ctx.io.printJson(record);
    throw new PendingError(stillRunningSentence(siteId, elapsed), { siteId, status: record.status });
  }
  if (!isLive(record)) {
    if (ctx.globals.json) ctx.io.printJson(record);
    throw new CliError(notLiveSentence(siteId, record), { siteId, status: record.status });
  }
  const code = printResult(ctx, record, liveWithoutAddress(siteId), true);
  if (ctx.io.canAnimate) ctx.io.errLine(`${style(ctx.io).green('✓')} Published ${siteId} in ${elapsed}`);
  return code;
}

export const publishCommand = defineCommand({
  name: 'publish',
  summary: 'Publish a site and wait until it is live',
  description:
    'Start publishing the site, wait until the new version is live, and print its address on stdout (when the answer holds none sitebuilder can read: nothing, stderr says so, exit 1; `publish status --json` shows it). --no-wait returns once it has started. A retried publish carries the same Idempotency-Key, so it is never done twice; a lost connection is tried again for --reconnect-for. A spinner shows on a terminal; piped, stderr stays silent unless something fails.\nSeveral sites (ids, - for ids on standard input, or --workspace ID --all-sites) are published at once, within the token’s budget of calls.',
  exitCodes:
    '0 live, 8 still running at --timeout or no connection, 130 Ctrl-C (both: it goes on); 1 refused, failed, or no address read, 2 usage, 4 auth',
  learnMore: 'docs/guide.md#publishing-and-uploads, docs/scripting.md#many-sites-at-once',
  usage: '[options] [site]  |  <site...>  |  -  |  --workspace ID --all-sites',
  args: PUBLISH_ARGS,
  options: PUBLISH_OPTIONS,
  examples: [
    'sitebuilder publish s_123',
    'URL=$(sitebuilder publish s_123 --timeout 5m)',
    'sitebuilder publish s_123 --json | jq -r .url',
    'sitebuilder publish s_123 --no-wait && sitebuilder publish status s_123',
    'sitebuilder publish s_1 s_2 s_3',
    'sitebuilder publish --workspace ws_1 --all-sites --fail-fast',
    'sitebuilder site list --workspace ws_1 --all | cut -f1 | sitebuilder publish - > published.tsv',
    'sitebuilder publish --workspace ws_1 --all-sites --json | jq -r \'select(.type == "site" and .exitCode != 0) | .siteId\'',
  ],
  jsonFields: `${PUBLISH_JSON_FIELDS}. With several sites, NDJSON: one { "type": "site", siteId, outcome, exitCode, url, status, deploymentId, error, idempotencyKey, note, next, elapsedMs } per site as it ends, then { "type": "summary", sites, outcomes, exitCode, interrupted, calls, rateLimited, elapsedMs }`,
  run: runPublish,
});
