// `sitebuilder message list`: the chat history, newest first. The service states that pages come
// newest page first; the order inside a page is not stated, so each page is sorted by its records'
// times. Records without a time keep the service's order, and stderr says so; when no record
// names a run, the JOB column stays (piped columns do not move) and stderr says why it is empty
// (docs/real-service.md).
import { itemsOf, paginate } from '../../api/paginate.js';
import { defineCommand, parsePositiveInt, SERVICE_EXITS } from '../../core/define.js';
import { UsageError } from '../../errors.js';
import { stringifyJson } from '../../io/json-deep.js';
import { printTable } from '../../io/print.js';
import { humanTime } from '../../io/records.js';
import { sanitize } from '../../io/sanitize.js';
import { type MessageRecord, readMessage } from '../../service/messages.js';
import { describeUnread, isUnread, known } from '../../service/read.js';
import { newestFirst } from '../../service/time.js';
import { sayUnreadTexts } from '../shared/listing.js';
import { SITE_ARG } from '../shared/site-arg.js';

const DEFAULT_LIMIT = 20;

/** The history page by page, each page newest first when its records show times; at most `max` records. */
async function* historyPages(
  pages: AsyncIterable<unknown>,
  sizes: number[],
  max: number | undefined,
  unordered: () => void,
): AsyncGenerator<MessageRecord[]> {
  let page: MessageRecord[] = [];
  let given = 0;
  const flush = (): MessageRecord[] => {
    const { records, sorted } = newestFirst(page, (m) => known(m.time));
    if (!sorted) unordered();
    const out = records.slice(0, max === undefined ? undefined : max - given);
    given += out.length;
    page = [];
    sizes.shift();
    return out;
  };
  for await (const m of pages) {
    page.push(readMessage(m));
    if (page.length >= (sizes[0] ?? Number.POSITIVE_INFINITY)) {
      yield flush();
      if (max !== undefined && given >= max) return;
    }
  }
  if (page.length) yield flush();
}

export const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'Show a site’s chat history, newest first',
  description:
    'The chat history of a site, newest first, page by page backwards (the service’s hasMore and oldestCursor). Inside a page the records are sorted by their time; when they carry none, they are shown in the order the service sent them, and stderr says so. Shows the newest 20 by default; --all walks back to the first message.',
  exitCodes: `0 listed; ${SERVICE_EXITS}`,
  args: [SITE_ARG],
  options: [
    {
      flags: '-L, --limit <n>',
      description: `at most this many messages (default ${DEFAULT_LIMIT})`,
      parse: parsePositiveInt('--limit'),
    },
    { flags: '--all', description: 'the whole history' },
  ],
  examples: [
    'sitebuilder message list site_bakery',
    'sitebuilder message list site_bakery --all --json > history.json',
  ],
  jsonFields:
    'an array of messages as the service sends them (ours: _id, role, text, mode, jobId, author, state, createdAt), newest first by their time',
  async run(opts, ctx) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('Use either --all or --limit, not both.');
    const projectId = ctx.site(opts.site);
    const max = opts.all ? undefined : (opts.limit ?? DEFAULT_LIMIT);
    const sizes: number[] = [];
    const items = paginate(
      ctx.api(),
      'list_messages',
      { projectId },
      { signal: ctx.signal, onPage: (envelope) => sizes.push(itemsOf(envelope.data).length) },
    );
    let unordered = false;
    const pages = historyPages(items, sizes, max, () => {
      unordered = true;
    });
    const sayOrder = () => {
      if (unordered)
        ctx.io.info(
          'The history’s records carry no time, so they are shown in the order the service sent them (its pages come newest first).',
        );
    };
    if (ctx.io.json) {
      // Streamed: one array, written page by page.
      let first = true;
      ctx.io.out('[');
      for await (const page of pages) {
        for (const m of page) {
          ctx.io.out(`${first ? '' : ','}\n${stringifyJson(m.raw)}`);
          first = false;
        }
      }
      ctx.io.outLine(first ? ']' : '\n]');
      sayOrder();
      return;
    }
    const rows: MessageRecord[] = [];
    for await (const page of pages) rows.push(...page);
    // On a terminal the agent's Markdown shows as text (its markers left out); piped, as it came.
    const md = ctx.io.stdoutIsTTY && ctx.io.markdown ? await import('../../render/markdown/index.js') : undefined;
    const shown = (text: string) => (md ? md.renderInline(sanitize(text), md.PLAIN_THEME) : oneLine(text));
    const now = ctx.clock.now();
    const tty = ctx.io.stdoutIsTTY;
    printTable(
      ctx.io,
      [
        { header: 'WHEN', value: (m) => humanTime(known(m.time), now, tty) },
        { header: 'FROM', value: (m) => known(m.sender) },
        { header: 'JOB', value: (m) => known(m.jobId) },
        // Free text: the table layer cuts it to the terminal's width (io/layout.ts); piped, it is whole.
        { header: 'MESSAGE', value: (m) => shown(known(m.text) ?? ''), free: true },
      ],
      rows,
    );
    sayOrder();
    if (rows.length === 0) return;
    if (!rows.some((m) => known(m.jobId) !== undefined))
      ctx.io.info('The history’s records name no run (no job id), so the JOB column is empty.');
    const untold = rows.filter((m) => known(m.text) === undefined).length;
    const first = rows.find((m) => isUnread(m.text))?.text;
    if (isUnread(first)) ctx.debug(`unread ${describeUnread(first)}`);
    sayUnreadTexts(ctx, untold, 'message');
  },
});

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();
