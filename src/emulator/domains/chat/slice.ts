// The chat domain's slice of the emulator state: jobs, and per site its conversation, queue,
// history and files. Plain JSON, so --state saves and loads it; runs are derived from their
// start time and script, so a loaded run goes on where it was.
import type { Brief } from './agent/brief.js';
import type { Awaiting } from './agent/script.js';
import type { RunScript } from './agent/timeline.js';
import type { EmulatorHost } from '../../host.js';

export type JobState = 'running' | 'stalled' | 'succeeded' | 'failed' | 'cancelled';

export interface JobRecord {
  jobId: string;
  siteId: string;
  workspaceId: string;
  userId: string;
  prompt: string;
  mode: 'build' | 'plan';
  startedAt: number;
  script: RunScript;
  /** Script events whose effects (file writes) were applied. */
  applied: number;
  /** Set once the run is over and its end was applied. */
  final: { state: 'succeeded' | 'failed' | 'cancelled'; at: number; creditsCharged: number } | null;
  /** Offset (ms from start) at which cancel_job stopped it. */
  cancelledAt: number | null;
  /** Events added after the script (the cost of a cancelled run). */
  extra: Array<{ event: string; data: Record<string, unknown> }>;
  queueItemId: string | null;
  /** What the run leaves behind when it succeeds (see AgentRun.after). */
  after: { brief: Brief | null; notes: string[]; awaiting: Awaiting | null };
}

export interface QueueItem {
  queueItemId: string;
  prompt: string;
  mode: 'build' | 'plan';
  userId: string;
  QueueVersion: number;
  createdAt: number;
}

export interface MessageRecord {
  _id: string;
  role: 'user' | 'agent';
  text: string;
  mode: 'build' | 'plan';
  jobId: string;
  userId: string | null;
  createdAt: number;
  /** The run's state, on agent messages. */
  state?: string;
}

export interface SiteChat {
  activeJobId: string | null;
  lastJobId: string | null;
  queue: QueueItem[];
  /** A failed or cancelled run stopped the queue; resume_queue restarts it. */
  queueStopped: boolean;
  awaiting: Awaiting | null;
  /** cancel_job clearSession: the next run starts a fresh conversation. */
  freshSession: boolean;
  brief: Brief | null;
  notes: string[];
  files: Record<string, string>;
  messages: MessageRecord[];
}

export interface ChatSlice {
  jobs: Record<string, JobRecord>;
  sites: Record<string, SiteChat>;
}

export const CHAT_DOMAIN = 'chat';

export function emptySiteChat(): SiteChat {
  return {
    activeJobId: null,
    lastJobId: null,
    queue: [],
    queueStopped: false,
    awaiting: null,
    freshSession: false,
    brief: null,
    notes: [],
    files: {},
    messages: [],
  };
}

export function chatSlice(emu: EmulatorHost): ChatSlice {
  return emu.slice<ChatSlice>(CHAT_DOMAIN);
}

/** The site's conversation; created on first use (sites added by the control API, loaded states). */
export function siteChat(emu: EmulatorHost, siteId: string): SiteChat {
  const s = chatSlice(emu);
  return (s.sites[siteId] ??= emptySiteChat());
}
