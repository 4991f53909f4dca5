import { text as readStream } from 'node:stream/consumers';
import type { Context } from '../../context.js';
import { ApiError, UsageError } from '../../errors.js';
import { readQueueItem } from '../../service/chat.js';
import { known } from '../../service/read.js';
import { itemsOf } from '../../api/paginate.js';
import { PROMPT_FILE_MAX_BYTES, readTextFile } from '../../io/read-text-file.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { defineCommand, type OptionsOf } from '../../core/define.js';
import { sb } from '../../io/shell.js';
import { SITE_ID_ARG } from '../shared/site-arg.js';

function parseVersion(v: string): number {
  if (!/^\d+$/.test(v.trim()))
    throw new UsageError(
      `--expected-version takes a whole number (the QueueVersion from queue list), not ${JSON.stringify(v)}.`,
    );
  return Number(v);
}

/**
 * The new text: the argument, the file, or asked on a terminal starting from the current text
 * (`current` reads it, with its version, which is then the one sent as expectedVersion).
 */
async function newText(
  opts: Pick<OptionsOf<typeof edit>, 'message' | 'messageFile'>,
  ctx: Context,
  current: () => Promise<Queued>,
): Promise<string> {
  if (opts.message !== undefined && opts.messageFile !== undefined)
    throw new UsageError('Give the new text either as an argument or with --message-file, not both.');
  let text = opts.message;
  if (opts.messageFile === '-') text = await readStream(ctx.io.stdin);
  else if (opts.messageFile !== undefined)
    text = readTextFile(opts.messageFile, { flag: '--message-file', maxBytes: PROMPT_FILE_MAX_BYTES });
  if (text === undefined) {
    ctx.prompter.require('The new text of the queued message', 'pass it as an argument or with --message-file');
    const { prompt } = await current();
    if (prompt === undefined)
      ctx.io.errLine('The service sent its current text in a form sitebuilder cannot read; type the new text whole.');
    text = await ctx.prompter.input('New text', { initial: prompt });
  }
  if (!text.trim())
    throw new UsageError(
      'The new text is empty; to take the message out, use `sitebuilder queue remove`. Nothing was sent.',
    );
  return text;
}

interface Queued {
  /** The QueueVersion as it came, sent back as expectedVersion. */
  version: unknown;
  /** Its text, or undefined when it could not be read. */
  prompt: string | undefined;
}

/** The queued message as just read: its QueueVersion (as the service asks for expectedVersion) and its text. */
async function readQueued(ctx: Context, projectId: string, id: string): Promise<Queued> {
  const { envelope } = await ctx.api().call('list_queued_messages', { projectId }, { signal: ctx.signal });
  const item = itemsOf(envelope.data)
    .map(readQueueItem)
    .find((r) => known(r.id) === id);
  if (!item)
    throw new UsageError(
      `No message ${id} waits in the queue of ${projectId}; it may have run already (\`${sb('queue list', projectId)}\`).`,
    );
  const version = known(item.version);
  if (version === undefined)
    throw new UsageError(
      `The queue did not say the QueueVersion of ${id}, so nothing was sent; pass the version from \`${sb('queue list', projectId)} --json\` with --expected-version.`,
    );
  return { version, prompt: known(item.text) };
}

export const edit = defineCommand({
  name: 'edit',
  summary: 'Rewrite a message you queued, before it runs',
  description:
    'Rewrites a queued message. The QueueVersion is read first (or given with --expected-version) and sent as expectedVersion: when someone changed the message in between, the service refuses and nothing is overwritten; read the queue again and retry.',
  exitCodes: '0 saved; 1 changed meanwhile or refused, 2 usage (nothing sent), 4 auth, 5 no text and no prompt',
  args: [
    SITE_ID_ARG,
    { name: 'queueItemId', description: 'the queued message (from queue list)', required: true },
    { name: 'message', description: 'the new text' },
  ],
  options: [
    { flags: '-F, --message-file <file>', description: 'read the new text from a file (- for standard input)' },
    {
      flags: '--expected-version <n>',
      description: 'the QueueVersion you read (default: read it now)',
      parse: parseVersion,
    },
  ],
  examples: [
    'sitebuilder queue edit site_bakery qmsg_000003 "Make the header blue instead"',
    'sitebuilder queue edit site_bakery qmsg_000003 -F new.txt --expected-version 2',
  ],
  jsonFields: 'the service’s data: the queued message after the edit, with its new QueueVersion',
  async run(opts, ctx) {
    const projectId = ctx.site(opts.site);
    // Read once: for the text to start from, and for the version that text had.
    let read: Promise<Queued> | undefined;
    const current = () => {
      read ??= readQueued(ctx, projectId, opts.queueItemId);
      return read;
    };
    const prompt = await newText(opts, ctx, current);
    const expectedVersion = opts.expectedVersion ?? (await current()).version;
    let data: unknown;
    try {
      data = (
        await ctx.api().call(
          'edit_queued_message',
          // The QueueVersion goes back as the service gave it: the registry's whole number is
          // the emulator's choice (methods.ts: its arguments are not shown), not a check.
          { projectId, queueItemId: opts.queueItemId, prompt, expectedVersion: expectedVersion as number },
          { signal: ctx.signal },
        )
      ).envelope.data;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        throw err.withSentence(
          `${sanitizeInline(err.serviceMessage || 'The message changed since it was read.')} Nothing was overwritten; check it with \`${sb('queue list', projectId)}\` and edit again.`,
        );
      }
      throw err;
    }
    if (ctx.io.json) return ctx.io.printJson(data);
    const v = known(readQueueItem(data).version);
    const shown = v === undefined ? '' : sanitizeInline(typeof v === 'string' ? v : JSON.stringify(v));
    ctx.io.outLine(`${sanitizeInline(opts.queueItemId)}\t${shown}`);
    ctx.io.info(
      `Rewrote ${opts.queueItemId}${v !== undefined ? `; its version is now ${shown}` : '; the service did not say its new version'}.`,
    );
  },
});
