// get_job's answer: every field the reference states (`state`, `events`, `cursor`,
// `creditsCharged`, `reset`, `error`), read as stated and nothing else. The job's `error` object
// shows no field: its code and message are read as an error event's (events.ts).
import { asEvent, type JobEvent, readErrorCode, readErrorMessage } from './events.js';
import { field, isUnread, recordOf, resource } from './read.js';

/** The job states the reference lists; any other is passed on as the service spelled it. */
export const LISTED_STATES = ['running', 'stalled', 'succeeded', 'failed', 'cancelled'] as const;
export const ENDED_STATES = ['succeeded', 'failed', 'cancelled'] as const;
export const ONGOING_STATES = ['running', 'stalled'] as const;

export const isEndedState = (state: string): boolean => (ENDED_STATES as readonly string[]).includes(state);
export const isListedState = (state: string): boolean => (LISTED_STATES as readonly string[]).includes(state);

export interface JobAnswer {
  /** The job's `state`; undefined when the answer holds none. */
  state?: string;
  /** The events, normalized, in order; and as they came (for --json). */
  events: JobEvent[];
  rawEvents: unknown[];
  /** The cursor to send back; undefined when the answer holds no number there. */
  cursor?: number;
  reset: boolean;
  creditsCharged?: number;
  /** The job's `error` object as sent (its fields are not shown); undefined when none. */
  error?: unknown;
}

export function readJobAnswer(data: unknown): JobAnswer {
  const d = recordOf(data);
  const rawEvents = Array.isArray(d.events) ? d.events : [];
  return {
    state: typeof d.state === 'string' && d.state ? d.state : undefined,
    events: rawEvents.map(asEvent),
    rawEvents,
    cursor: typeof d.cursor === 'number' && Number.isFinite(d.cursor) ? d.cursor : undefined,
    reset: d.reset === true,
    creditsCharged: typeof d.creditsCharged === 'number' ? d.creditsCharged : undefined,
    error: d.error === undefined || d.error === null ? undefined : d.error,
  };
}

/** A failed run's error as the `end` line gives it: code and message read, and the object as sent. */
export interface JobError {
  code: string | null;
  message: string | null;
  raw: unknown;
}

export function readJobError(error: unknown): JobError {
  const message = readErrorMessage(error);
  return { code: readErrorCode(error) ?? null, message: isUnread(message) ? null : message, raw: error ?? null };
}

/** get_job's answer: every field stated. */
export const JOB = resource('job', 'get_job data', {
  state: field('its state', ['state'], (v) => (typeof v === 'string' ? v : undefined), ['state']),
  events: field('its events', ['events'], (v) => (Array.isArray(v) ? v : undefined), ['events']),
  cursor: field('its cursor', ['cursor'], (v) => (typeof v === 'number' ? v : undefined), ['cursor']),
  creditsCharged: field('its cost', ['creditsCharged'], (v) => (typeof v === 'number' ? v : undefined), [
    'creditsCharged',
  ]),
  reset: field('whether to start over', ['reset'], (v) => (typeof v === 'boolean' ? v : undefined), ['reset']),
  error: field('its error', ['error'], (v) => v, ['error']),
});
