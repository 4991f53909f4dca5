import { pick } from '../../io/records.js';
import { defineCommand } from '../../core/define.js';

interface RemoveOptions {
  site?: string;
  queueItemId: string;
}

export const remove = defineCommand<RemoveOptions>({
  name: 'remove',
  aliases: ['rm'],
  summary: 'Take a message out of the queue; it will not run',
  description: 'Takes a waiting message out of the site’s queue. Needs a token with the sites:delete scope.',
  args: [
    { name: 'site', description: 'the site', required: true },
    { name: 'queueItemId', description: 'the queued message (from queue list)', required: true },
  ],
  examples: ['sitebuilder queue remove site_bakery qmsg_000004'],
  jsonFields: 'the service’s data: { removed, waiting }',
  async run(opts, ctx) {
    const projectId = ctx.site(opts.site);
    const { envelope } = await ctx
      .api()
      .call('remove_queued_message', { projectId, queueItemId: opts.queueItemId }, { signal: ctx.signal });
    if (ctx.io.json) return ctx.io.printJson(envelope.data);
    const waiting = pick(envelope.data, 'waiting');
    ctx.io.info(
      `Removed ${opts.queueItemId}; it will not run.${typeof waiting === 'number' ? ` ${waiting} message${waiting === 1 ? '' : 's'} still wait.` : ''}`,
    );
  },
});
