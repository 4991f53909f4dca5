import type { Context } from '../../context.js';
import { printTable } from '../../io/print.js';
import { sb } from '../../io/shell.js';
import { humanTime } from '../../io/records.js';
import { readQueueItem, readQueueStopped } from '../../service/chat.js';
import { known } from '../../service/read.js';
import { itemsOf } from '../../api/paginate.js';
import { defineCommand, SERVICE_EXITS } from '../../core/define.js';

/** The queue of a site as a table (TTY) or tab-separated rows (piped); used by /queue in chat too. */
export async function printQueue(
  ctx: Context,
  projectId: string,
  opts: { conversation?: boolean } = {},
): Promise<void> {
  const { envelope } = await ctx.api().call('list_queued_messages', { projectId }, { signal: ctx.signal });
  const items = itemsOf(envelope.data).map(readQueueItem);
  if (ctx.io.json) {
    ctx.io.printJson(envelope.data);
    return;
  }
  const stopped = readQueueStopped(envelope.data);
  if (items.length === 0)
    ctx.io.info(
      `No message waits in the queue${stopped ? '; it stopped after a failed or cancelled run, with nothing to resume' : ''}.`,
    );
  else {
    const now = ctx.clock.now();
    printTable(
      ctx.io,
      [
        { header: 'POS', value: (r) => known(r.position) },
        { header: 'ID', value: (r) => known(r.id) },
        // The service's default mode is `build` (its reference), so a message that names none is one.
        { header: 'MODE', value: (r) => known(r.mode) ?? 'build' },
        { header: 'VERSION', value: (r) => known(r.version) },
        { header: 'BY', value: (r) => known(r.author) },
        { header: 'QUEUED', value: (r) => humanTime(known(r.time), now, ctx.io.stdoutIsTTY) },
        // Free text: the table layer cuts it to the terminal's width (io/layout.ts); piped, it is whole.
        { header: 'MESSAGE', value: (r) => oneLine(known(r.text) ?? ''), free: true },
      ],
      items,
    );
  }
  const untold = items.filter((r) => known(r.text) === undefined).length;
  if (untold)
    ctx.io.info(
      `The service sent the text of ${untold} queued message${untold === 1 ? '' : 's'} in a form sitebuilder cannot read, left empty; --json shows ${untold === 1 ? 'it' : 'them'}.`,
    );
  if (stopped && items.length > 0)
    ctx.io.info(
      `The queue is stopped after a failed or cancelled run; let it run with: ${opts.conversation ? '/resume' : sb('queue resume', projectId)}`,
    );
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the messages waiting in a site’s queue, oldest first',
  description:
    'Messages sent while the agent was busy wait in the site’s queue and run on their own, oldest first. Each shows its QueueVersion, which `queue edit` checks so it never overwrites a newer edit.',
  exitCodes: `0 listed; ${SERVICE_EXITS}`,
  args: [{ name: 'site', description: 'the site (default: `site use` or SITEBUILDER_SITE)' }],
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
