import { defineCommand } from '../../core/define.js';
import { ApiError } from '../../errors.js';
import { printFields } from '../../io/print.js';
import { asRecord, idOf, isoTime, nameOf, pick } from '../../io/records.js';
import { sanitizeDeep } from '../../io/sanitize.js';
import { requireSite } from './workspaces.js';

export const view = defineCommand<{ site?: string }>({
  name: 'view',
  summary: 'Show a site and its publish state',
  args: [{ name: 'site', description: 'site id (default: the default site)' }],
  examples: ['sitebuilder site view site_123', 'sitebuilder site view --json | jq .publish'],
  jsonFields: '{ site, workspaceId, publish: { running, status, url } | null }',
  async run(opts, ctx) {
    const siteId = ctx.site(opts.site);
    const found = await requireSite(ctx.api(), siteId, ctx.signal);
    let publish: Record<string, unknown> | null = null;
    try {
      publish = asRecord(
        (await ctx.api().call('get_publish_status', { projectId: siteId }, { signal: ctx.signal })).envelope.data,
      );
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      ctx.debug(`publish status unavailable: ${err.message}`);
    }
    if (ctx.globals.json) return ctx.io.printJson({ site: found.site, workspaceId: found.workspaceId, publish });
    const site = sanitizeDeep(asRecord(found.site));
    const pub = sanitizeDeep(publish ?? {});
    printFields(ctx.io, [
      ['ID', idOf(site)],
      ['Name', nameOf(site)],
      ['Workspace', found.workspaceId],
      ['Created', isoTime(pick(site, 'createdAt'))],
      [
        'Publish',
        publish ? (pick(pub, 'running') ? 'running' : (pick(pub, 'status') ?? 'never published')) : 'unknown',
      ],
      ['Live at', pick(pub, 'url', 'liveUrl', 'address') ?? ''],
    ]);
  },
});
