// The queue of a site as a table on a terminal, tab-separated rows when piped, the service's data
// with --json: `queue list`, and /queue in a conversation (commands/chat/interactive.ts).
import { itemsOf } from '../../api/paginate.js';
import type { Context } from '../../context.js';
import { printTable } from '../../io/print.js';
import { humanTime } from '../../io/records.js';
import { sb } from '../../io/shell.js';
import { readQueueItem, readQueueStopped } from '../../service/chat.js';
import { known } from '../../service/read.js';
import { sayUnreadTexts } from './listing.js';

/** `conversation`: the way to resume the queue said as the conversation says it (/resume). */
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
  sayUnreadTexts(ctx, untold, 'queued message');
  if (stopped && items.length > 0)
    ctx.io.info(
      `The queue is stopped after a failed or cancelled run; let it run with: ${opts.conversation ? '/resume' : sb('queue resume', projectId)}`,
    );
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
