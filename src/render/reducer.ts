// The pure reducer of a run: get_job answers → RunState. A `reset` true answer drops everything
// derived before (the service replays the events), so a reset never doubles a count.
import {
  asEvent,
  creditsOf,
  errorMessageOf,
  fileOf,
  questionOf,
  textOf,
  todosOf,
  type FileOp,
  type JobEvent,
  type Question,
  type Todo,
} from './events.js';
import { asRecord, pick } from '../io/records.js';

export const ENDED_STATES = ['succeeded', 'failed', 'cancelled'] as const;

export interface RunState {
  jobId?: string;
  /** The job's `state`; `unknown` before the first answer. */
  state: string;
  cursor: number;
  text: string;
  todos: Todo[];
  files: Array<{ path: string; op: FileOp }>;
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
}

export interface JobAnswer {
  state?: unknown;
  events?: unknown;
  cursor?: unknown;
  reset?: unknown;
  creditsCharged?: unknown;
  error?: unknown;
  [extra: string]: unknown;
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
  };
}

export function isEnded(state: string): boolean {
  return (ENDED_STATES as readonly string[]).includes(state);
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
      const piece = textOf(data);
      if (piece) next.text = s.text + piece;
      break;
    }
    case 'todos': {
      const todos = todosOf(data);
      if (todos) next.todos = todos;
      break;
    }
    case 'file_changed':
    case 'file_deleted': {
      const f = fileOf(data, ev.event);
      if (f) next.files = [...s.files, f];
      break;
    }
    case 'tool_call': {
      next.steps = s.steps + 1;
      const q = questionOf(data);
      if (q) next.question = q;
      break;
    }
    case 'plan_approval_requested':
      next.planRequested = true;
      break;
    case 'credits_used': {
      const c = creditsOf(data);
      if (c !== undefined) next.creditsUsed = s.creditsUsed + c;
      break;
    }
    case 'error':
      next.errors = [...s.errors, errorMessageOf(data) ?? 'The run failed.'];
      break;
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

/** Applies one get_job answer: a reset first (when flagged), then its events, then state and cursor. */
export function applyAnswer(prev: RunState, answer: JobAnswer): AppliedAnswer {
  const reset = answer.reset === true;
  let s = reset ? resetRunState(prev) : prev;
  const events = Array.isArray(answer.events) ? answer.events.map(asEvent) : [];
  for (const ev of events) s = reduceEvent(s, ev);
  const stateName = typeof answer.state === 'string' && answer.state ? answer.state : s.state;
  const cursor =
    typeof answer.cursor === 'number' && Number.isFinite(answer.cursor) ? answer.cursor : s.cursor + events.length;
  const charged = typeof answer.creditsCharged === 'number' ? answer.creditsCharged : s.creditsCharged;
  s = { ...s, state: stateName, cursor, creditsCharged: charged };
  if (answer.error !== undefined && answer.error !== null) s.error = answer.error;
  return { state: s, events, reset, stateChanged: stateName !== prev.state };
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

/** One sentence for a failed run, from its error events or its `error` object. */
export function failureMessage(s: RunState): string {
  const fromJob = s.error !== undefined ? errorMessageOf(s.error) : undefined;
  return fromJob ?? s.errors[s.errors.length - 1] ?? 'The run failed without saying why.';
}

/** The plan of a run that ended with plan_approval_requested: its text (the plan sits in the text events). */
export function planOf(s: RunState): string {
  return s.text.trim();
}

export function errorCodeOf(s: RunState): string | undefined {
  const c = pick(asRecord(s.error), 'code', 'type', 'errorCode', 'error_code');
  return typeof c === 'string' ? c : undefined;
}

/** What a failed run's `end` line says: its code and message read tolerantly, and the object as the service sent it. */
export interface RunError {
  code: string | null;
  message: string;
  raw: unknown;
}

export function runErrorOf(s: RunState): RunError {
  return { code: errorCodeOf(s) ?? null, message: failureMessage(s), raw: s.error ?? null };
}
