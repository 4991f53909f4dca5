import { UsageError } from '../../errors.js';
import { itemsOf } from '../../api/paginate.js';
import { readQueueItem } from '../../service/chat.js';
import { known } from '../../service/read.js';
import { defineCommand, parsePositiveInt, SERVICE_EXITS } from '../../core/define.js';
import { SITE_ID_ARG } from '../shared/site-arg.js';

export const move = defineCommand({
  name: 'move',
  summary: 'Move a queued message earlier or later',
  exitCodes: `0 moved; ${SERVICE_EXITS}`,
  args: [SITE_ID_ARG, { name: 'queueItemId', description: 'the queued message (from queue list)', required: true }],
  options: [
    { flags: '--to <position>', description: 'its new position, 1 runs next', parse: parsePositiveInt('--to') },
    { flags: '--first', description: 'run it next' },
    { flags: '--last', description: 'run it after every other waiting message' },
  ],
  examples: [
    'sitebuilder queue move site_bakery qmsg_000004 --first',
    'sitebuilder queue move site_bakery qmsg_000004 --to 3',
  ],
  jsonFields: 'the service’s data: { item, items } with the new order',
  async run(opts, ctx) {
    const given = [opts.to !== undefined, Boolean(opts.first), Boolean(opts.last)].filter(Boolean).length;
    if (given !== 1) throw new UsageError('Say where with exactly one of --to N, --first or --last.');
    const projectId = ctx.site(opts.site);
    const client = ctx.api();
    const queueLength = async () =>
      itemsOf((await client.call('list_queued_messages', { projectId }, { signal: ctx.signal })).envelope.data).length;
    // Exactly one was given: --to N, --first, or --last (after every message waiting now).
    const position = opts.to ?? (opts.first ? 1 : Math.max(1, await queueLength()));
    const { envelope } = await client.call(
      'reorder_queued_message',
      { projectId, queueItemId: opts.queueItemId, position },
      { signal: ctx.signal },
    );
    if (ctx.io.json) return ctx.io.printJson(envelope.data);
    const order = itemsOf(envelope.data).map((r) => known(readQueueItem(r).id) ?? '');
    for (const [i, id] of order.entries()) ctx.io.outLine(`${i + 1}\t${id}`);
    ctx.io.info(`Moved ${opts.queueItemId} to position ${position}.`);
  },
});
