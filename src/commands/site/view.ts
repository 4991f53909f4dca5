import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { ApiError } from '../../errors.js';
import { printFields } from '../../io/print.js';
import { isoTime } from '../../io/records.js';
import { known } from '../../service/read.js';
import { readSite } from '../../service/sites.js';
import { sanitizeDeep } from '../../io/sanitize.js';
import { isLive, liveAddress, statusRecord, type PublishRecord } from '../../service/publish.js';
import { requireSite } from './workspaces.js';
import { sb } from '../../io/shell.js';
import { sayLeftEmpty } from '../shared/listing.js';
import { SITE_ARG } from '../shared/site-arg.js';

export const view = defineCommand({
  name: 'view',
  summary: 'Show a site and its publish state',
  exitCodes: `0 shown; ${SERVICE_EXITS}`,
  args: [SITE_ARG],
  examples: ['sitebuilder site view site_123', 'sitebuilder site view --json | jq -r .url'],
  jsonFields:
    '{ site: the site record as the service sends it, workspaceId, url: the live address (from the publish status, else the site record; null when neither names one), publish: the record of `publish status --json` | null when it could not be read }',
  async run(opts, ctx) {
    const siteId = ctx.site(opts.site);
    const found = await requireSite(ctx.api(), siteId, ctx.signal);
    let publish: PublishRecord | null = null;
    try {
      publish = statusRecord(
        siteId,
        await ctx.api().call('get_publish_status', { projectId: siteId }, { signal: ctx.signal }),
      );
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      ctx.debug(`publish status unavailable: ${err.message}`);
    }
    // The same reader as `publish`: an address is a whole http(s) URL (or a bare host name), never an id.
    const url = publish?.url ?? liveAddress(found.site);
    if (ctx.globals.json) return ctx.io.printJson({ site: found.site, workspaceId: found.workspaceId, url, publish });
    const site = readSite(sanitizeDeep(found.site));
    const state = publish
      ? publish.running
        ? 'running'
        : (publish.status ?? 'not given by the service')
      : `unknown (\`${sb('publish status', siteId)}\` says why)`;
    const liveAt = url
      ? url
      : publish && isLive(publish)
        ? 'live, but the service named no address'
        : 'none named by the service';
    const name = known(site.name) ?? '';
    const created = isoTime(known(site.created));
    printFields(ctx.io, [
      ['ID', known(site.id) ?? siteId],
      ['Name', name],
      ['Workspace', found.workspaceId],
      ['Created', created],
      ['Publish', state],
      ['Live at', liveAt],
    ]);
    // The site record's fields beyond _id are not shown: an empty row is said, not left bare.
    const missing = [!name && 'name', !created && 'creation time'].filter((w) => typeof w === 'string');
    sayLeftEmpty(ctx, missing, 'the service’s site record');
  },
});
