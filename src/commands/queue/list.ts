import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { printQueue } from '../shared/queue.js';
import { SITE_ARG } from '../shared/site-arg.js';

export const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the messages waiting in a site’s queue, oldest first',
  description:
    'Messages sent while the agent was busy wait in the site’s queue and run on their own, oldest first. Each shows its QueueVersion, which `queue edit` checks so it never overwrites a newer edit.',
  exitCodes: `0 listed; ${SERVICE_EXITS}`,
  args: [SITE_ARG],
  examples: [
    'sitebuilder queue list site_bakery',
    'sitebuilder queue list site_bakery --json | jq ".items[].queueItemId"',
  ],
  jsonFields:
    'the service’s data: { items: [{ queueItemId, queuePosition, prompt, mode, author, QueueVersion, createdAt }], stopped, queueResumable, running }',
  async run(opts, ctx) {
    await printQueue(ctx, ctx.site(opts.site));
  },
});
