// The site queue: messages sent while the agent is busy wait here and run on their own, in
// order, after the current run. Caps: 20 waiting per site, 8 per person (429 naming the cap).
// A failed or cancelled run stops the queue until resume_queue. Each item carries a
// QueueVersion that edit_queued_message checks against expectedVersion.
import { LIMITS } from '../../../api/limits.js';
import { advanceSite, startRun } from './runs.js';
import type { QueueItem, SiteChat } from './slice.js';
import type { CallContext, HandlerResult } from '../../host.js';

export function queueView(chat: SiteChat, item: QueueItem) {
  return {
    queueItemId: item.queueItemId,
    queuePosition: chat.queue.indexOf(item) + 1,
    prompt: item.prompt,
    mode: item.mode,
    author: item.userId,
    QueueVersion: item.QueueVersion,
    createdAt: new Date(item.createdAt).toISOString(),
  };
}

/** Adds a message to the queue, or refuses with 429 naming the cap it hit. */
export function enqueue(call: CallContext, chat: SiteChat, prompt: string, mode: 'build' | 'plan'): QueueItem {
  if (chat.queue.length >= LIMITS.queuePerSite) {
    call.refuse(
      429,
      `This site's queue already holds ${LIMITS.queuePerSite} waiting messages, the most a site may have; wait for some to run or remove some, then send again.`,
      {
        code: 'queue_full',
        cap: 'site',
        limit: LIMITS.queuePerSite,
        waiting: chat.queue.length,
      },
    );
  }
  const mine = chat.queue.filter((q) => q.userId === call.user._id).length;
  if (mine >= LIMITS.queuePerPerson) {
    call.refuse(
      429,
      `You already have ${LIMITS.queuePerPerson} messages waiting in this site's queue, the most one person may have; wait for some to run or remove some, then send again.`,
      {
        code: 'queue_person_limit',
        cap: 'person',
        limit: LIMITS.queuePerPerson,
        waiting: mine,
      },
    );
  }
  const item: QueueItem = {
    queueItemId: call.emu.newId('qmsg'),
    prompt,
    mode,
    userId: call.user._id,
    QueueVersion: 1,
    createdAt: call.now(),
  };
  chat.queue.push(item);
  return item;
}

function siteAndChat(call: CallContext): SiteChat {
  const site = call.requireSite(call.args.projectId as string);
  return advanceSite(call.emu, site._id);
}

function findItem(call: CallContext, chat: SiteChat): QueueItem {
  const id = call.args.queueItemId as string;
  const item = chat.queue.find((q) => q.queueItemId === id);
  if (!item)
    call.refuse(404, `No message with the id "${id}" is waiting in this site's queue; it may have run already.`, {
      code: 'queue_item_not_found',
      queueItemId: id,
    });
  return item!;
}

function listQueued(call: CallContext): HandlerResult {
  const chat = siteAndChat(call);
  const items = chat.queue.map((q) => queueView(chat, q));
  return {
    data: { items, stopped: chat.queueStopped, queueResumable: chat.queueStopped, running: chat.activeJobId },
    count: items.length,
    message: `${items.length} waiting message${items.length === 1 ? '' : 's'}${chat.queueStopped ? '; the queue is stopped' : ''}.`,
  };
}

function editQueued(call: CallContext): HandlerResult {
  const chat = siteAndChat(call);
  const item = findItem(call, chat);
  if (item.userId !== call.user._id) {
    call.refuse(403, 'Only the person who queued a message can edit it.', {
      code: 'queue_item_not_yours',
      queueItemId: item.queueItemId,
    });
  }
  const expected = call.args.expectedVersion as number;
  if (expected !== item.QueueVersion) {
    call.refuse(
      409,
      `This queued message changed since you read it (its QueueVersion is now ${item.QueueVersion}, not ${expected}); read the queue again and retry.`,
      {
        code: 'queue_version_mismatch',
        QueueVersion: item.QueueVersion,
        item: queueView(chat, item),
      },
    );
  }
  item.prompt = call.args.prompt as string;
  item.QueueVersion++;
  return { data: queueView(chat, item), message: `Queued message ${item.queueItemId} rewritten.` };
}

function reorderQueued(call: CallContext): HandlerResult {
  const chat = siteAndChat(call);
  const item = findItem(call, chat);
  const position = call.args.position as number;
  if (position > chat.queue.length) {
    call.refuse(400, `\`position\` must be between 1 and ${chat.queue.length}, the number of waiting messages.`, {
      code: 'queue_position_out_of_range',
    });
  }
  chat.queue.splice(chat.queue.indexOf(item), 1);
  chat.queue.splice(position - 1, 0, item);
  item.QueueVersion++;
  return {
    data: { item: queueView(chat, item), items: chat.queue.map((q) => queueView(chat, q)) },
    message: `Moved to position ${position}.`,
  };
}

function removeQueued(call: CallContext): HandlerResult {
  const chat = siteAndChat(call);
  const item = findItem(call, chat);
  const view = queueView(chat, item);
  chat.queue.splice(chat.queue.indexOf(item), 1);
  return {
    data: { removed: view, waiting: chat.queue.length },
    message: `Removed ${item.queueItemId} from the queue; it will not run.`,
  };
}

function resumeQueue(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId as string);
  const chat = advanceSite(call.emu, site._id);
  if (!chat.queueStopped) {
    return {
      data: { resumed: false, waiting: chat.queue.length, jobId: null },
      message: 'The queue is not stopped; nothing to resume.',
    };
  }
  chat.queueStopped = false;
  let jobId: string | null = null;
  if (!chat.activeJobId && chat.queue.length > 0) {
    // A pending question or plan is left behind: resuming means the waiting messages go first.
    chat.awaiting = null;
    const item = chat.queue.shift()!;
    jobId = startRun(
      call.emu,
      site._id,
      { prompt: item.prompt, mode: item.mode, userId: item.userId, queueItemId: item.queueItemId },
      call.now(),
    ).jobId;
  }
  return {
    data: { resumed: true, waiting: chat.queue.length, jobId },
    message: jobId ? `The queue runs again; job ${jobId} started.` : 'The queue runs again.',
  };
}

export const queueHandlers = {
  list_queued_messages: listQueued,
  edit_queued_message: editQueued,
  reorder_queued_message: reorderQueued,
  remove_queued_message: removeQueued,
  resume_queue: resumeQueue,
};
