// The run engine. A job is its script plus its start time: what get_job shows, its state and
// the files it wrote so far are derived from the emulated clock on each access (advanceSite),
// so runs follow the clock speed, need no timer to progress and resume after a load. A timer
// at each run's end only keeps queued runs and file writes moving while nobody asks.
import { scriptRun } from './agent/script.js';
import { runEnded } from './hooks.js';
import { chatSlice, siteChat, type JobRecord, type JobState, type SiteChat } from './slice.js';
import { chargeCredits } from '../../credits.js';
import type { EmulatorHost } from '../../host.js';
import { DEFAULT_SLOW_SECONDS, type SiteRecord } from '../../state.js';

export interface RunInput {
  prompt: string;
  mode: 'build' | 'plan';
  userId: string;
  queueItemId?: string | null;
  /** Seeded history: the run is not charged. */
  free?: boolean;
}

/** Charges the run's workspace for it (credits.ts), when it has something to charge. */
function charge(emu: EmulatorHost, job: JobRecord, amount: number, note: string): number {
  const ws = emu.workspace(job.workspaceId);
  if (!ws || amount <= 0) return 0;
  return chargeCredits(emu, ws, amount, note, job.siteId);
}

/**
 * A site's outcome set for fleets (docs/emulator.md "Control API"): a new message (not a reply to
 * what waits) ends in a failure, a question, a plan, or stalls first, as the directives do.
 */
function scriptedOutcome(site: SiteRecord, replying: boolean): { directive: string; mode?: 'plan' } {
  if (replying || !site.outcome) return { directive: '' };
  switch (site.outcome) {
    case 'failure':
      return { directive: ' #fail' };
    case 'question':
      return { directive: ' #ask' };
    case 'plan':
      return { directive: '', mode: 'plan' };
    case 'slow':
      return { directive: ` #stall:${site.slowSeconds ?? DEFAULT_SLOW_SECONDS}` };
    default:
      return { directive: '' };
  }
}

export function startRun(emu: EmulatorHost, siteId: string, input: RunInput, at: number): JobRecord {
  const site = emu.site(siteId);
  if (!site) throw new Error(`No site ${siteId}.`);
  const chat = siteChat(emu, siteId);
  const scripted = scriptedOutcome(site, chat.awaiting !== null);
  const { script, after } = scriptRun({
    prompt: `${input.prompt}${scripted.directive}`,
    mode: scripted.mode ?? input.mode,
    siteName: site.name,
    files: chat.files,
    brief: chat.brief,
    notes: chat.notes,
    awaiting: chat.awaiting,
    fresh: chat.freshSession,
  });
  const job: JobRecord = {
    jobId: emu.newId('job'),
    siteId,
    workspaceId: site.workspaceId,
    userId: input.userId,
    prompt: input.prompt,
    mode: input.mode,
    startedAt: at,
    script,
    applied: 0,
    final: null,
    cancelledAt: null,
    extra: [],
    queueItemId: input.queueItemId ?? null,
    after,
  };
  if (input.free) script.credits = 0;
  chatSlice(emu).jobs[job.jobId] = job;
  chat.activeJobId = job.jobId;
  chat.lastJobId = job.jobId;
  chat.awaiting = null;
  chat.freshSession = false;
  if (chat.queue.length === 0) chat.queueStopped = false;
  chat.messages.push({
    _id: emu.newId('msg'),
    role: 'user',
    text: input.prompt,
    mode: input.mode,
    jobId: job.jobId,
    userId: input.userId,
    createdAt: at,
  });
  emu.clock.schedule(at + script.endAt, () => {
    if (emu.site(siteId) && chatSlice(emu)?.jobs[job.jobId] === job) advanceSite(emu, siteId);
  });
  return job;
}

function elapsedOf(job: JobRecord, now: number): number {
  const e = now - job.startedAt;
  return job.cancelledAt !== null ? Math.min(e, job.cancelledAt) : e;
}

/** Applies the file writes of the events that happened by now. */
function applyEffects(chat: SiteChat, job: JobRecord, now: number): void {
  const elapsed = elapsedOf(job, now);
  const events = job.script.events;
  while (job.applied < events.length && events[job.applied].at <= elapsed) {
    const ev = events[job.applied++];
    if (ev.write) chat.files[ev.write.path] = ev.write.content;
    if (ev.remove) delete chat.files[ev.remove];
  }
}

function agentText(job: JobRecord, upTo: number): string {
  return job.script.events
    .filter((e) => e.event === 'text' && e.at <= upTo)
    .map((e) => String(e.data.text ?? ''))
    .join('')
    .trim();
}

function finishRun(emu: EmulatorHost, chat: SiteChat, job: JobRecord, at: number): void {
  applyEffects(chat, job, at);
  const state = job.script.finalState;
  const creditsCharged = charge(emu, job, job.script.credits, `Agent run ${job.jobId}`);
  job.final = { state, at, creditsCharged };
  chat.activeJobId = null;
  if (state === 'succeeded') {
    chat.brief = job.after.brief;
    chat.notes = job.after.notes;
    chat.awaiting = job.after.awaiting;
  } else {
    chat.awaiting = null;
    chat.queueStopped = true;
  }
  const question = job.script.events.find((e) => e.event === 'tool_call' && e.data.name === 'ask_user');
  let text = agentText(job, job.script.endAt);
  if (question) text = `${text}\n${String((question.data.input as { question?: string }).question ?? '')}`.trim();
  if (job.script.error) text = `${text}\n${job.script.error.message}`.trim();
  chat.messages.push({
    _id: emu.newId('msg'),
    role: 'agent',
    text,
    mode: job.mode,
    jobId: job.jobId,
    userId: null,
    createdAt: at,
    state,
  });
  runEnded(emu, job, chat);
}

/** Brings the site up to now: finishes runs that ended, starts queued messages in turn. */
export function advanceSite(emu: EmulatorHost, siteId: string, now = emu.clock.now()): SiteChat {
  const chat = siteChat(emu, siteId);
  const jobs = chatSlice(emu).jobs;
  let idleSince = now;
  for (let guard = 0; guard < 10_000; guard++) {
    const job = chat.activeJobId ? jobs[chat.activeJobId] : undefined;
    if (!job) {
      if (chat.queueStopped || chat.awaiting || chat.queue.length === 0) break;
      const item = chat.queue.shift()!;
      startRun(
        emu,
        siteId,
        { prompt: item.prompt, mode: item.mode, userId: item.userId, queueItemId: item.queueItemId },
        idleSince,
      );
      continue;
    }
    applyEffects(chat, job, now);
    const endTime = job.startedAt + job.script.endAt;
    if (now < endTime) break;
    finishRun(emu, chat, job, endTime);
    idleSince = endTime;
  }
  return chat;
}

export function jobState(job: JobRecord, now: number): JobState {
  if (job.final) return job.final.state;
  const e = now - job.startedAt;
  if (e >= job.script.endAt) return job.script.finalState;
  return job.script.stalls.some((s) => e >= s.from && e < s.to) ? 'stalled' : 'running';
}

/**
 * The event log as get_job pages it. Events are numbered from 1; the cursor is the number of
 * the last one read. After a reset the log restarts: the replayed events get new numbers after
 * the old ones, and a client whose cursor points into the old log is answered reset true.
 */
export function eventLog(
  job: JobRecord,
  now: number,
): { first: number; events: Array<{ event: string; data: Record<string, unknown> }> } {
  const elapsed = elapsedOf(job, now);
  const all = job.script.events;
  const visible = all.filter((e) => e.at <= elapsed).map((e) => ({ event: e.event, data: e.data }));
  visible.push(...job.extra);
  const resetAt = job.script.resetAt;
  if (resetAt === undefined || elapsed < resetAt) return { first: 1, events: visible };
  const before = all.filter((e) => e.at < resetAt).length;
  return { first: before + 1, events: visible };
}

export function readJob(job: JobRecord, cursor: number, now: number) {
  const { first, events } = eventLog(job, now);
  const reset = first > 1 && cursor > 0 && cursor < first;
  const from = reset ? 0 : Math.max(0, cursor - (first - 1));
  const last = first - 1 + events.length;
  const state = jobState(job, now);
  return {
    jobId: job.jobId,
    projectId: job.siteId,
    state,
    mode: job.mode,
    events: events.slice(from),
    cursor: Math.max(reset ? 0 : cursor, last),
    creditsCharged: job.final ? job.final.creditsCharged : null,
    reset,
    error: state === 'failed' ? (job.script.error ?? { code: 'agent_failed', message: 'The run failed.' }) : null,
  };
}

export function cancelRun(emu: EmulatorHost, job: JobRecord, now: number, clearSession: boolean): void {
  const chat = siteChat(emu, job.siteId);
  applyEffects(chat, job, now);
  const elapsed = Math.max(0, now - job.startedAt);
  job.cancelledAt = elapsed;
  const share = Math.min(1, elapsed / Math.max(1, job.script.endAt));
  const creditsCharged = charge(
    emu,
    job,
    Math.max(1, Math.ceil(job.script.credits * share)),
    `Agent run ${job.jobId} (cancelled)`,
  );
  job.extra.push({ event: 'credits_used', data: { credits: creditsCharged } });
  job.final = { state: 'cancelled', at: now, creditsCharged };
  chat.activeJobId = null;
  chat.awaiting = null;
  chat.queueStopped = true;
  if (clearSession) chat.freshSession = true;
  chat.messages.push({
    _id: emu.newId('msg'),
    role: 'agent',
    text: agentText(job, elapsed),
    mode: job.mode,
    jobId: job.jobId,
    userId: null,
    createdAt: now,
    state: 'cancelled',
  });
  runEnded(emu, job, chat);
}
