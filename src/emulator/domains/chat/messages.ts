// list_messages: the site's chat history, newest page first (the service's "backwards"
// listing). Our choices where the service leaves it open (docs/emulator.md): pages of 20 (limit
// up to 100), newest first within a page too, and oldestCursor is the id of the page's oldest
// message; sent back as `cursor`, it asks for the messages before it.
import { advanceSite } from './runs.js';
import type { MessageRecord } from './slice.js';
import type { CallContext, HandlerResult } from '../../host.js';

export const MESSAGES_PAGE = 20;
const MESSAGES_PAGE_MAX = 100;

function messageView(m: MessageRecord) {
  return {
    _id: m._id,
    role: m.role,
    text: m.text,
    mode: m.mode,
    jobId: m.jobId,
    author: m.userId,
    state: m.state ?? null,
    createdAt: new Date(m.createdAt).toISOString(),
  };
}

export function listMessages(call: CallContext): HandlerResult {
  const { projectId, cursor, limit } = call.args as { projectId: string; cursor?: string; limit?: number };
  const site = call.requireSite(projectId);
  const all = advanceSite(call.emu, site._id).messages;
  let end = all.length;
  if (cursor !== undefined) {
    end = all.findIndex((m) => m._id === cursor);
    if (end < 0)
      call.refuse(
        400,
        `\`cursor\` "${cursor}" is not a cursor this site's history gave; send the oldestCursor of the previous page.`,
        { code: 'bad_cursor' },
      );
  }
  const size = Math.min(limit ?? MESSAGES_PAGE, MESSAGES_PAGE_MAX);
  const start = Math.max(0, end - size);
  const page = all.slice(start, end).reverse().map(messageView);
  return {
    data: { items: page, hasMore: start > 0, oldestCursor: page.length ? page[page.length - 1]._id : null },
    count: all.length,
    message: `${page.length} of ${all.length} messages.`,
  };
}
