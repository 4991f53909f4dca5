// `sitebuilder publish status <site>`: one read of get_publish_status, or with --wait, following
// the publish until it stops running (what `publish` does after starting one).
import type { Context } from '../../context.js';
import { PendingError } from '../../errors.js';
import { printFields } from '../../io/print.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { formatElapsed, startSpinner } from '../../io/spinner.js';
import { defineCommand, type OptionsOf, parseDuration, SERVICE_EXITS } from '../../core/define.js';
import { RECONNECT_FOR_OPTION } from '../shared/reconnect-option.js';
import { DEFAULT_TIMEOUT_MS } from './sentences.js';
import { errorText, isLive, statusRecord, type PublishRecord } from '../../service/publish.js';
import { waitForPublish } from './wait.js';
import { sayLeftEmpty } from '../shared/listing.js';
import { SITE_ARG } from '../shared/site-arg.js';

export const PUBLISH_STATUS_JSON_FIELDS =
  '{ siteId, running, status, url, deploymentId, startedAt, finishedAt, error }: always present, null where the service ' +
  'gave nothing (url: the live address, never an id); then every other field of the service’s answer as it sent it';

/** The rows' fields the answer did not give, in words (a finish time only once it has finished). */
function notGiven(record: PublishRecord): string[] {
  const rows: Array<[unknown, string]> = [
    [record.status, 'status'],
    [record.url, 'address'],
    [record.deploymentId, 'deployment id'],
    [record.startedAt, 'start time'],
    [record.running ? 'n/a' : record.finishedAt, 'finish time'],
  ];
  return rows.filter(([v]) => v === null).map(([, word]) => word);
}

/** Follows the publish until it stops running; at --timeout, the record is printed and exit 8. */
async function waitForIt(
  o: OptionsOf<typeof publishStatusCommand>,
  ctx: Context,
  siteId: string,
): Promise<PublishRecord> {
  const started = ctx.clock.now();
  const label = (r?: PublishRecord) => `Publishing ${siteId}${r?.status ? ` (${sanitizeInline(r.status)})` : ''}`;
  const spinner = await startSpinner(ctx.io, ctx.clock, label());
  let last: PublishRecord | undefined;
  let result: Awaited<ReturnType<typeof waitForPublish>>;
  try {
    result = await waitForPublish({
      client: ctx.api(),
      clock: ctx.clock,
      siteId,
      timeoutMs: o.timeout ?? DEFAULT_TIMEOUT_MS,
      signal: ctx.signal,
      onStatus: (r) => {
        last = r;
        spinner.update(label(r));
      },
      reconnectForMs: o.reconnectFor,
      say: (line) => ctx.io.errLine(line),
      show: (text) => spinner.update(text ?? label(last)),
    });
  } catch (err) {
    // Given up without a connection: the status as last read, as at --timeout.
    if (err instanceof PendingError && last && ctx.globals.json) ctx.io.printJson(last);
    throw err;
  } finally {
    spinner.stop();
  }
  if (!result.timedOut) return result.record;
  print(ctx, result.record);
  throw new PendingError(
    `The publish of ${siteId} is still running after ${formatElapsed(ctx.clock.now() - started)} (--timeout); it goes on.`,
    { siteId, status: result.record.status },
  );
}

export async function runPublishStatus(o: OptionsOf<typeof publishStatusCommand>, ctx: Context): Promise<number> {
  const siteId = ctx.site(o.site);
  const record = o.wait
    ? await waitForIt(o, ctx, siteId)
    : statusRecord(siteId, await ctx.api().call('get_publish_status', { projectId: siteId }, { signal: ctx.signal }));
  print(ctx, record);
  return 0;
}

function print(ctx: Context, record: PublishRecord): void {
  const { siteId } = record;
  if (ctx.globals.json) {
    ctx.io.printJson(record);
    return;
  }
  printFields(ctx.io, [
    ['site', record.siteId],
    ['status', record.status],
    ['running', record.running ? 'yes' : 'no'],
    ['url', record.url],
    ['deployment', record.deploymentId],
    ['started', record.startedAt],
    ['finished', record.finishedAt],
    ...(record.error ? ([['error', errorText(record.error)]] as Array<[string, unknown]>) : []),
  ]);
  // An empty value is never left unexplained.
  if (!record.url && isLive(record))
    ctx.io.warn(
      `The publish of ${siteId} is live, but sitebuilder cannot read an address in the service’s answer; --json shows every field it sent.`,
    );
  const missing = notGiven(record).filter((w) => w !== 'address' || !isLive(record));
  sayLeftEmpty(ctx, missing);
}

export const publishStatusCommand = defineCommand({
  name: 'status',
  summary: 'Show whether a publish is running, and its status (or follow it with --wait)',
  description:
    'Read the publish status of the site once: `running` is true while a publish works; `ready` means the new version is live. Piped, `field<TAB>value` lines; a value the answer did not give is left empty and stderr names it. --wait follows the publish until it stops running.',
  exitCodes: `0 shown (with --wait: no longer running), 8 still running at --timeout or no connection; ${SERVICE_EXITS}`,
  learnMore: 'docs/guide.md#publishing-and-uploads',
  args: [SITE_ARG],
  options: [
    { flags: '--wait', description: 'follow the publish until it stops running' },
    {
      flags: '--timeout <duration>',
      description: 'with --wait: stop waiting after this long (default 10m) and exit 8',
      parse: parseDuration('--timeout'),
    },
    RECONNECT_FOR_OPTION,
  ],
  examples: [
    'sitebuilder publish status s_123',
    'sitebuilder publish status s_123 --json | jq .status',
    'sitebuilder publish status s_123 --wait',
  ],
  jsonFields: PUBLISH_STATUS_JSON_FIELDS,
  run: (o, ctx): Promise<number> => runPublishStatus(o, ctx),
});
