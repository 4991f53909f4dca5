// The pure reducer of a run: get_job answers → RunState. A `reset` true answer drops everything
// derived before (the service replays the events), so a reset never doubles a count.
import {
  type FileChange,
  type JobEvent,
  type Question,
  readCredits,
  readErrorMessage,
  readFileEvent,
  readQuestion,
  readTextEvent,
  readTodosEvent,
  type Todo,
} from '../service/events.js';
import { ENDED_STATES, isEndedState, type JobAnswer, readJobError } from '../service/job.js';
import { isUnread, type Read, unread, type Unread } from '../service/read.js';

export type { JobAnswer };
export { ENDED_STATES };

export interface RunState {
  jobId?: string;
  /** The job's `state`; `unknown` before the first answer. */
  state: string;
  cursor: number;
  text: string;
  todos: Todo[];
  files: FileChange[];
  steps: number;
  question?: Question;
  planRequested: boolean;
  /** Sum of the `credits_used` events. */
  creditsUsed: number;
  /** The job's `creditsCharged`, once over. */
  creditsCharged?: number;
  errors: string[];
  /** The job's `error` object (the service documents none of its fields). */
  error?: unknown;
  eventCount: number;
  resets: number;
  /** What the service sent that could not be read, the first of each kind ("text", "a task list"). */
  unread: Unread[];
}

export function initialRunState(jobId?: string): RunState {
  return {
    jobId,
    state: 'unknown',
    cursor: 0,
    text: '',
    todos: [],
    files: [],
    steps: 0,
    planRequested: false,
    creditsUsed: 0,
    errors: [],
    eventCount: 0,
    resets: 0,
    unread: [],
  };
}

export const isEnded = isEndedState;

/** Notes what could not be read, once a kind. */
function noteUnread(s: RunState, u: Unread): Unread[] {
  return s.unread.some((x) => x.what === u.what) ? s.unread : [...s.unread, u];
}

/** Drops what was derived from events, keeping who the run is and where the cursor is. */
export function resetRunState(s: RunState): RunState {
  return { ...initialRunState(s.jobId), state: s.state, cursor: s.cursor, resets: s.resets + 1 };
}

export function reduceEvent(s: RunState, ev: JobEvent): RunState {
  const next: RunState = { ...s, eventCount: s.eventCount + 1 };
  const data = ev.data;
  switch (ev.event) {
    case 'text': {
      const piece = readTextEvent(data);
      if (isUnread(piece)) next.unread = noteUnread(s, piece);
      else if (piece) next.text = s.text + piece;
      break;
    }
    case 'todos': {
      const todos = readTodosEvent(data);
      if (isUnread(todos)) next.unread = noteUnread(s, todos);
      else next.todos = todos;
      break;
    }
    case 'file_changed':
    case 'file_deleted': {
      const f = readFileEvent(data, ev.event);
      if (isUnread(f)) next.unread = noteUnread(s, f);
      else next.files = [...s.files, f];
      break;
    }
    case 'tool_call': {
      next.steps = s.steps + 1;
      const q = readQuestion(data);
      if (q) next.question = q;
      if (q && isUnread(q.question)) next.unread = noteUnread(s, q.question);
      break;
    }
    case 'plan_approval_requested':
      next.planRequested = true;
      break;
    case 'credits_used': {
      const c = readCredits(data);
      if (c !== undefined) next.creditsUsed = s.creditsUsed + c;
      break;
    }
    case 'error': {
      const m = readErrorMessage(data);
      next.errors = [...s.errors, isUnread(m) ? '' : m];
      break;
    }
    default:
      break;
  }
  return next;
}

export interface AppliedAnswer {
  state: RunState;
  /** The events of this answer, in order, normalized. */
  events: JobEvent[];
  reset: boolean;
  stateChanged: boolean;
}

/** Applies one get_job answer (service/job.ts): a reset first (when flagged), then its events, then state and cursor. */
export function applyAnswer(prev: RunState, answer: JobAnswer): AppliedAnswer {
  let s = answer.reset ? resetRunState(prev) : prev;
  for (const ev of answer.events) s = reduceEvent(s, ev);
  const stateName = answer.state ?? s.state;
  const cursor = answer.cursor ?? s.cursor + answer.events.length;
  s = { ...s, state: stateName, cursor, creditsCharged: answer.creditsCharged ?? s.creditsCharged };
  if (answer.error !== undefined) s.error = answer.error;
  return { state: s, events: answer.events, reset: answer.reset, stateChanged: stateName !== prev.state };
}

export type Outcome = 'ongoing' | 'succeeded' | 'question' | 'plan' | 'failed' | 'cancelled';

export function outcomeOf(s: RunState): Outcome {
  if (!isEnded(s.state)) return 'ongoing';
  if (s.state === 'failed') return 'failed';
  if (s.state === 'cancelled') return 'cancelled';
  if (s.question) return 'question';
  if (s.planRequested) return 'plan';
  return 'succeeded';
}

/** Credits of the run: creditsCharged once over, else what the credits_used events said. */
export function creditsOfRun(s: RunState): number | undefined {
  if (s.creditsCharged !== undefined) return s.creditsCharged;
  return s.creditsUsed > 0 ? s.creditsUsed : undefined;
}

/** The message of a failed run: its `error` object's, else its last error event's; undefined when none can be read. */
function readFailure(s: RunState): string | undefined {
  const fromJob = s.error !== undefined ? readErrorMessage(s.error) : undefined;
  if (typeof fromJob === 'string') return fromJob;
  return s.errors.filter(Boolean).at(-1);
}

/** One sentence for a failed run: its message, or what is known of it (never a message made up as the service's). */
export function failureMessage(s: RunState): string {
  const read = readFailure(s);
  if (read !== undefined) return read;
  const sent = s.error !== undefined || s.errors.length > 0;
  return sent
    ? 'The run failed; the service sent its error in a form sitebuilder cannot read (--json shows it).'
    : 'The run failed without saying why.';
}

/**
 * The plan of a run that ended with plan_approval_requested: its text (the plan sits in the text
 * events). Unread when text could not be read, or none came: an empty plan is never shown as one.
 */
export function planOf(s: RunState): Read<string> {
  const text = s.text.trim();
  const missed = s.unread.find((u) => u.what === 'text');
  if (missed) return unread('the plan', missed.looked, missed.raw);
  return text ? text : unread('the plan', ['data of the text events'], null);
}

/** What a failed run's `end` line says: its code and message as read (null when not), and the object as sent. */
export interface RunError {
  code: string | null;
  message: string | null;
  raw: unknown;
}

export function runErrorOf(s: RunState): RunError {
  const fromJob = readJobError(s.error);
  return { code: fromJob.code, message: readFailure(s) ?? null, raw: s.error ?? null };
}
