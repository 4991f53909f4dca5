// `sitebuilder publish status <site>`: one read of get_publish_status.
import type { Context } from '../../context.js';
import { printFields } from '../../io/print.js';
import { defineCommand } from '../../core/define.js';
import { errorText, publishRecord } from './record.js';

export interface PublishStatusOptions {
  site?: string;
}

export const PUBLISH_STATUS_JSON_FIELDS =
  '{ siteId, running, status, url, deploymentId, startedAt, finishedAt, error } (plus any other field the service answers)';

export async function runPublishStatus(o: PublishStatusOptions, ctx: Context): Promise<number> {
  const siteId = ctx.site(o.site);
  const { envelope } = await ctx.api().call('get_publish_status', { projectId: siteId }, { signal: ctx.signal });
  const record = publishRecord(siteId, envelope.data);
  if (ctx.globals.json) {
    ctx.io.printJson(record);
    return 0;
  }
  printFields(ctx.io, [
    ['site', record.siteId],
    ['status', record.status ?? 'unknown'],
    ['running', record.running ? 'yes' : 'no'],
    ['url', record.url],
    ['deployment', record.deploymentId],
    ['started', record.startedAt],
    ['finished', record.finishedAt],
    ...(record.error ? ([['error', errorText(record.error)]] as Array<[string, unknown]>) : []),
  ]);
  return 0;
}

export const publishStatusCommand = defineCommand<PublishStatusOptions>({
  name: 'status',
  summary: 'Show whether a publish is running, and its status',
  description:
    'Reads the publish status of the site once: `running` is true while a publish works; `ready` means the new version is live.',
  args: [{ name: 'site', description: 'site id (default: `site use` or SITEBUILDER_SITE)' }],
  examples: ['sitebuilder publish status s_123', 'sitebuilder publish status s_123 --json | jq .status'],
  jsonFields: PUBLISH_STATUS_JSON_FIELDS,
  run: runPublishStatus,
});
