// What the code backups need from the chat engine, in one place: a snapshot of the agent's
// files (and what it remembers of the site, so later runs build on the restored version), the
// run in progress, and restoring a snapshot, which also deletes the site's chat history and
// discards its queue (what restore_code_backup does in the service).
import { advanceSite, cancelRun } from './runs.js';
import { chatSlice, type JobRecord, type SiteChat } from './slice.js';
import type { EmulatorHost } from '../../host.js';

export interface CodeSnapshot {
  files: Record<string, string>;
  brief: unknown;
  notes: string[];
}

export interface CodeRestoreEffects {
  filesReverted: string[];
  filesDeleted: string[];
  filesRestored: string[];
  messagesDeleted: number;
  queuedMessagesDiscarded: number;
}

/** From the chat as it is (inside a run-end hook: no advancing, which would re-enter the engine). */
export function snapshotOf(chat: SiteChat): CodeSnapshot {
  return JSON.parse(JSON.stringify({ files: chat.files, brief: chat.brief, notes: chat.notes }));
}

export function codeSnapshot(emu: EmulatorHost, siteId: string): CodeSnapshot {
  return snapshotOf(advanceSite(emu, siteId));
}

/** The run still going on the site (running or stalled), if any. */
export function activeRun(emu: EmulatorHost, siteId: string): JobRecord | undefined {
  const chat = advanceSite(emu, siteId);
  const job = chat.activeJobId ? chatSlice(emu).jobs[chat.activeJobId] : undefined;
  return job && !job.final ? job : undefined;
}

export function stopRun(emu: EmulatorHost, job: JobRecord): void {
  cancelRun(emu, job, emu.clock.now(), false);
}

export function restoreSiteCode(emu: EmulatorHost, siteId: string, snapshot: CodeSnapshot): CodeRestoreEffects {
  const chat = advanceSite(emu, siteId);
  const current = chat.files;
  const effects: CodeRestoreEffects = {
    filesReverted: Object.keys(snapshot.files)
      .filter((p) => p in current && current[p] !== snapshot.files[p])
      .sort(),
    filesDeleted: Object.keys(current)
      .filter((p) => !(p in snapshot.files))
      .sort(),
    filesRestored: Object.keys(snapshot.files)
      .filter((p) => !(p in current))
      .sort(),
    messagesDeleted: chat.messages.length,
    queuedMessagesDiscarded: chat.queue.length,
  };
  chat.files = { ...snapshot.files };
  chat.brief = JSON.parse(JSON.stringify(snapshot.brief ?? null));
  chat.notes = [...snapshot.notes];
  chat.messages = [];
  chat.queue = [];
  chat.queueStopped = false;
  chat.awaiting = null;
  // The conversation is gone, so the agent's next one starts fresh.
  chat.freshSession = true;
  return effects;
}
