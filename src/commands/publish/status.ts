// `sitebuilder publish status <site>`: one read of get_publish_status.
import type { Context } from '../../context.js';
import { printFields } from '../../io/print.js';
import { defineCommand } from '../../core/define.js';
import { errorText, isLive, statusRecord, type PublishRecord } from './record.js';

export interface PublishStatusOptions {
  site?: string;
}

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

export async function runPublishStatus(o: PublishStatusOptions, ctx: Context): Promise<number> {
  const siteId = ctx.site(o.site);
  const record = statusRecord(
    siteId,
    await ctx.api().call('get_publish_status', { projectId: siteId }, { signal: ctx.signal }),
  );
  if (ctx.globals.json) {
    ctx.io.printJson(record);
    return 0;
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
      `The publish of ${siteId} is live, but the service’s answer named no address for it; --json shows every field it sent.`,
    );
  const missing = notGiven(record).filter((w) => w !== 'address' || !isLive(record));
  if (missing.length) ctx.io.info(`Not in the service’s answer, so left empty: ${missing.join(', ')}.`);
  return 0;
}

export const publishStatusCommand = defineCommand<PublishStatusOptions>({
  name: 'status',
  summary: 'Show whether a publish is running, and its status',
  description:
    'Reads the publish status of the site once: `running` is true while a publish works; `ready` means the new version is live.\n' +
    'Piped: `field<TAB>value` lines (site, status, running, url, deployment, started, finished, and error when there is one); ' +
    'a value the service’s answer did not give is left empty and stderr names it. An answer without `running` is an error (exit 1).',
  args: [{ name: 'site', description: 'site id (default: `site use` or SITEBUILDER_SITE)' }],
  examples: ['sitebuilder publish status s_123', 'sitebuilder publish status s_123 --json | jq .status'],
  jsonFields: PUBLISH_STATUS_JSON_FIELDS,
  run: runPublishStatus,
});
