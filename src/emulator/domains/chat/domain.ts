// The chat domain: send_message (build and plan mode, queued when the agent is busy),
// get_job (cursor-paged events, reset), cancel_job (clearSession), list_messages and the queue
// methods, with the scripted agent behind them (agent/). It also starts
// create_site's first build (emu.jobs) and tells publishing which files a site holds.
import { assertCodeHostingAllows } from '../code-hosting/domain.js';
import { advanceSite, cancelRun, readJob, startRun } from './runs.js';
import { enqueue, queueHandlers } from './queue.js';
import { listMessages } from './messages.js';
import { CHAT_DOMAIN, chatSlice, siteChat, type ChatSlice, type JobRecord } from './slice.js';
import { EmulatorRefusal, isRefusal } from '../../refusal.js';
import { provideSiteFiles } from '../publish/site-files.js';
import { defineDomain } from '../../types.js';
import type { CallContext, EmulatorHost, Handler, HandlerResult } from '../../host.js';

/** Every send_message refusal carries data.code, a site chat error code (our names: docs/emulator.md). */
function withChatCode(handler: Handler): Handler {
  return async (call) => {
    try {
      return await handler(call);
    } catch (err) {
      if (!isRefusal(err)) throw err;
      const data = (err.data && typeof err.data === 'object' ? err.data : {}) as Record<string, unknown>;
      if (typeof data.code === 'string') throw err;
      const reason = typeof data.reason === 'string' ? data.reason.replace(/-/g, '_') : `http_${err.status}`;
      throw new EmulatorRefusal(err.status, err.message, { ...data, code: reason }, err.headers);
    }
  };
}

function sendMessage(call: CallContext): HandlerResult {
  const {
    projectId,
    prompt,
    mode = 'build',
  } = call.args as { projectId: string; prompt: string; mode?: 'build' | 'plan' };
  const site = call.requireSite(projectId);
  const ws = call.workspaceOf(site);
  assertCodeHostingAllows(call.emu, site);
  if (ws.credits <= 0) {
    call.refuse(
      402,
      `${ws.name} has no AI credits left; nothing ran and nothing was charged. Add credits, then send the message again.`,
      {
        code: 'insufficient_credits',
        reason: 'no-credits',
        credits: ws.credits,
      },
    );
  }
  const chat = advanceSite(call.emu, site._id);
  const busy = chat.activeJobId !== null;
  // A reply to a question or a plan runs at once and is never queued; earlier queued items wait.
  const reply = !busy && chat.awaiting !== null;
  if (busy || (!reply && chat.queueStopped && chat.queue.length > 0)) {
    const item = enqueue(call, chat, prompt, mode);
    const position = chat.queue.indexOf(item) + 1;
    return {
      data: {
        queued: true,
        queueItemId: item.queueItemId,
        queuePosition: position,
        queueResumable: chat.queueStopped,
        QueueVersion: item.QueueVersion,
      },
      message: chat.queueStopped
        ? `Queued at position ${position}; the queue is stopped, so it waits until resume_queue.`
        : `The agent is busy; queued at position ${position}. It runs on its own; do not send it again.`,
    };
  }
  const job = startRun(call.emu, site._id, { prompt, mode, userId: call.user._id }, call.now());
  return { data: { queued: false, jobId: job.jobId, mode }, message: `Run ${job.jobId} started.` };
}

function jobOfSite(call: CallContext, siteId: string, jobId: string): JobRecord {
  const job = chatSlice(call.emu).jobs[jobId];
  if (!job || job.siteId !== siteId)
    call.refuse(404, `No job has the id "${jobId}" on this site.`, { reason: 'not-found', jobId });
  return job!;
}

function getJob(call: CallContext): HandlerResult {
  const { projectId, jobId, cursor = 0 } = call.args as { projectId: string; jobId: string; cursor?: number };
  const site = call.requireSite(projectId);
  advanceSite(call.emu, site._id);
  const job = jobOfSite(call, site._id, jobId);
  const data = readJob(job, cursor, call.now());
  return { data, message: `Run ${job.jobId} is ${data.state}.` };
}

function cancelJob(call: CallContext): HandlerResult {
  const {
    projectId,
    jobId,
    clearSession = false,
  } = call.args as { projectId: string; jobId?: string; clearSession?: boolean };
  const site = call.requireSite(projectId);
  const chat = advanceSite(call.emu, site._id);
  const target = jobId
    ? jobOfSite(call, site._id, jobId)
    : chat.activeJobId
      ? chatSlice(call.emu).jobs[chat.activeJobId]
      : undefined;
  if (!target || target.final) {
    if (!target && clearSession) {
      chat.freshSession = true;
      chat.awaiting = null;
      return {
        data: { cancelled: false, sessionCleared: true, jobId: null },
        message: 'Nothing was running; the next conversation starts fresh.',
      };
    }
    const why = target
      ? `This run already ended (${target.final!.state}); nothing to cancel.`
      : 'Nothing is running on this site; nothing to cancel.';
    call.refuse(409, why, {
      code: 'job_not_running',
      jobId: target?.jobId ?? null,
      state: target?.final?.state ?? null,
    });
  }
  cancelRun(call.emu, target!, call.now(), clearSession);
  return {
    data: {
      cancelled: true,
      jobId: target!.jobId,
      state: 'cancelled',
      creditsCharged: target!.final!.creditsCharged,
      sessionCleared: clearSession,
      queueStopped: true,
      waiting: chat.queue.length,
    },
    message: `Run ${target!.jobId} cancelled; what the agent already wrote stays${chat.queue.length ? '; the queue is stopped' : ''}.`,
  };
}

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};

/** The seeded sites got their first build long ago (free), so history and files exist. */
function seedHistory(emu: EmulatorHost): void {
  for (const site of emu.state.core.sites) {
    const run = startRun(
      emu,
      site._id,
      { prompt: site.prompt, mode: 'build', userId: site.createdBy, free: true },
      site.createdAt,
    );
    advanceSite(emu, site._id, site.createdAt + run.script.endAt);
  }
}

export const chatDomain = defineDomain<ChatSlice>({
  name: CHAT_DOMAIN,
  init: (): ChatSlice => ({ jobs: {}, sites: {} }),
  seed: seedHistory,
  handlers: {
    send_message: withChatCode(sendMessage),
    get_job: getJob,
    cancel_job: cancelJob,
    list_messages: listMessages,
    ...queueHandlers,
  },
  attach(emu) {
    emu.jobs = {
      start({ site, user, prompt, mode }) {
        const job = startRun(emu, site._id, { prompt, mode, userId: user._id }, emu.clock.now());
        return { jobId: job.jobId };
      },
    };
    provideSiteFiles(emu, (e, site) => {
      const files = advanceSite(e, site._id).files;
      return Object.entries(files).map(([path, body]) => ({
        path,
        body,
        contentType: CONTENT_TYPES[path.split('.').pop() ?? ''] ?? 'text/plain; charset=utf-8',
      }));
    });
  },
  control: [
    {
      verb: 'GET',
      path: 'sites/:siteId/chat',
      run: ({ params, emu }) => {
        emu.siteOr404(params.siteId);
        const chat = advanceSite(emu, params.siteId);
        return {
          siteId: params.siteId,
          activeJobId: chat.activeJobId,
          lastJobId: chat.lastJobId,
          queueStopped: chat.queueStopped,
          waiting: chat.queue.length,
          awaiting: chat.awaiting?.kind ?? null,
          freshSession: chat.freshSession,
          files: Object.fromEntries(Object.entries(chat.files).map(([p, c]) => [p, c.length])),
        };
      },
    },
    {
      verb: 'GET',
      path: 'sites/:siteId/files',
      run: ({ params, emu }) => {
        emu.siteOr404(params.siteId);
        return { files: siteChat(emu, params.siteId).files };
      },
    },
  ],
});
