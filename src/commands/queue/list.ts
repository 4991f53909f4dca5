import type { Context } from '../../context.js';
import { printTable } from '../../io/print.js';
import { sb } from '../../io/shell.js';
import { asRecord, humanTime, pick } from '../../io/records.js';
import { itemsOf } from '../../api/paginate.js';
import { defineCommand, SERVICE_EXITS } from '../../core/define.js';

interface ListOptions {
  site?: string;
}

/** The queue of a site as a table (TTY) or tab-separated rows (piped); used by /queue in chat too. */
export async function printQueue(
  ctx: Context,
  projectId: string,
  opts: { conversation?: boolean } = {},
): Promise<void> {
  const { envelope } = await ctx.api().call('list_queued_messages', { projectId }, { signal: ctx.signal });
  const data = asRecord(envelope.data);
  const items = itemsOf(envelope.data).map(asRecord);
  if (ctx.io.json) {
    ctx.io.printJson(envelope.data);
    return;
  }
  const stopped = pick(data, 'stopped', 'queueStopped', 'queueResumable') === true;
  if (items.length === 0)
    ctx.io.info(
      `No message waits in the queue${stopped ? '; it stopped after a failed or cancelled run, with nothing to resume' : ''}.`,
    );
  else {
    const now = ctx.clock.now();
    printTable(
      ctx.io,
      [
        { header: 'POS', value: (r) => pick(r, 'queuePosition', 'position') },
        { header: 'ID', value: (r) => pick(r, 'queueItemId', '_id', 'id') },
        { header: 'MODE', value: (r) => pick(r, 'mode') ?? 'build' },
        { header: 'VERSION', value: (r) => pick(r, 'QueueVersion', 'queueVersion', 'version') },
        { header: 'BY', value: (r) => pick(r, 'author', 'userId', 'createdBy') },
        { header: 'QUEUED', value: (r) => humanTime(pick(r, 'createdAt'), now, ctx.io.stdoutIsTTY) },
        // Free text: the table layer cuts it to the terminal's width (io/layout.ts); piped, it is whole.
        { header: 'MESSAGE', value: (r) => oneLine(String(pick(r, 'prompt', 'text', 'message') ?? '')), free: true },
      ],
      items,
    );
  }
  if (stopped && items.length > 0)
    ctx.io.info(
      `The queue is stopped after a failed or cancelled run; let it run with: ${opts.conversation ? '/resume' : sb('queue resume', projectId)}`,
    );
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export const list = defineCommand<ListOptions>({
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
