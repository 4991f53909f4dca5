// `sitebuilder queue remove`: takes a waiting message out for good, so it confirms first (--yes
// in scripts; exit 5 without either, nothing sent).
import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { readRemoveAnswer } from '../../service/chat.js';
import { known } from '../../service/read.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { confirmDestructive } from '../shared/confirm.js';
import { SITE_ID_ARG } from '../shared/site-arg.js';

export const remove = defineCommand({
  name: 'remove',
  aliases: ['rm'],
  summary: 'Take a message out of the queue; it will not run',
  description:
    'Takes a waiting message out of the site’s queue: it will not run, and its text is not kept. Asks first (--yes in scripts). Needs a token with the sites:delete scope.',
  exitCodes: `0 removed, 5 needs --yes, 130 declined; ${SERVICE_EXITS}`,
  args: [SITE_ID_ARG, { name: 'queueItemId', description: 'the queued message (from queue list)', required: true }],
  examples: [
    'sitebuilder queue remove site_bakery qmsg_000004',
    'sitebuilder queue remove site_bakery qmsg_000004 --yes',
  ],
  jsonFields: 'the service’s data (ours: { removed, waiting })',
  async run(opts, ctx) {
    const projectId = ctx.site(opts.site);
    const id = sanitizeInline(opts.queueItemId);
    await confirmDestructive(ctx, {
      action: `Remove the queued message ${id} from ${sanitizeInline(projectId)}`,
      consequences: ['it will not run, and its text is not kept'],
    });
    const { envelope } = await ctx
      .api()
      .call('remove_queued_message', { projectId, queueItemId: opts.queueItemId }, { signal: ctx.signal });
    if (ctx.io.json) return ctx.io.printJson(envelope.data);
    const waiting = known(readRemoveAnswer(envelope.data).waiting);
    ctx.io.info(
      `Removed ${id}; it will not run.${typeof waiting === 'number' ? ` ${waiting} message${waiting === 1 ? ' still waits' : 's still wait'}.` : ''}`,
    );
  },
});
