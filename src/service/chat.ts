// The answers of the chat methods besides get_job and list_messages: send_message (stated:
// `queued`, `jobId`, `queueItemId`, `queuePosition`, `queueResumable`), cancel_job, resume_queue
// and remove_queued_message (their answers: not shown), list_queued_messages and its items
// (`queueItemId`, `queuePosition`, `QueueVersion` stated; the rest not shown), and a refusal's
// `data.code` (stated for send_message). Stated names come first; the others only show or fill.
import { field, isRecord, locate, type ReadRecord, readRecord, resource } from './read.js';
import { TIME_PATHS } from './messages.js';
import { parseTime } from './time.js';
import { asAny, asBoolean, asId, asNumber, asText, readText } from './values.js';

export const SEND_ANSWER = resource('send_message answer', 'send_message data', {
  queued: field('whether it was queued', ['queued'], asBoolean, ['queued']),
  jobId: field('the run it started', ['jobId', 'job.jobId', 'job._id'], asId, ['jobId']),
  queueItemId: field('the queued message', ['queueItemId', 'id'], asId, ['queueItemId']),
  queuePosition: field('its place in the queue', ['queuePosition', 'position'], asNumber, ['queuePosition']),
  queueResumable: field('whether the queue is stopped', ['queueResumable'], asBoolean, ['queueResumable']),
});

export type SendAnswerRead = ReadRecord<typeof SEND_ANSWER.fields>;
export const readSendAnswer = (data: unknown): SendAnswerRead => readRecord(SEND_ANSWER, data);

export const CANCEL_ANSWER = resource('cancel_job answer', 'cancel_job data', {
  jobId: field('the run it stopped', ['jobId', 'cancelledJobId', 'job_id'], asId),
  state: field('the state of that run', ['state', 'status'], asText),
  waiting: field('how many messages wait', ['waiting', 'waitingCount', 'queued', 'queueLength'], asNumber),
  cancelled: field('whether a run was stopped', ['cancelled'], asBoolean),
});

export const readCancelAnswer = (data: unknown) => readRecord(CANCEL_ANSWER, data);

export const RESUME_ANSWER = resource('resume_queue answer', 'resume_queue data', {
  jobId: field('the run it started', ['jobId', 'startedJobId', 'job_id'], asId),
  resumed: field('whether the queue was resumed', ['resumed'], asBoolean),
});

/** resume_queue's answer: the run it started, none (one of its fields there, null), or not said. */
export function readResumeAnswer(data: unknown): {
  started: { jobId: string } | 'none' | 'not said';
  resumed?: boolean;
} {
  const r = readRecord(RESUME_ANSWER, data);
  const resumed = typeof r.resumed === 'boolean' ? r.resumed : undefined;
  if (typeof r.jobId === 'string') return { started: { jobId: r.jobId }, resumed };
  const named = isRecord(data) && RESUME_ANSWER.fields.jobId.paths.some((p) => p in data);
  return { started: named ? 'none' : 'not said', resumed };
}

export const REMOVE_ANSWER = resource('remove_queued_message answer', 'remove_queued_message data', {
  waiting: field('how many messages still wait', ['waiting', 'remaining', 'waitingCount', 'queueLength'], asNumber),
});

export const readRemoveAnswer = (data: unknown) => readRecord(REMOVE_ANSWER, data);

export const QUEUE = resource('queue', 'list_queued_messages data', {
  stopped: field('whether the queue is stopped', ['stopped', 'queueStopped', 'queueResumable'], asBoolean),
});

export const readQueueStopped = (data: unknown): boolean => locate(data, QUEUE.fields.stopped)?.value === true;

export const QUEUE_ITEM = resource('queue item', 'list_queued_messages data (the list)', {
  id: field('its id', ['queueItemId', '_id', 'id'], asId, ['queueItemId']),
  position: field('its place', ['queuePosition', 'position'], asNumber, ['queuePosition']),
  /** Sent back as `expectedVersion` as it came. */
  version: field('its QueueVersion', ['QueueVersion', 'queueVersion', 'version'], asAny, ['QueueVersion']),
  mode: field('its mode', ['mode'], asText),
  author: field('who queued it', ['author', 'userId', 'createdBy'], asText),
  time: field('when it was queued', TIME_PATHS, parseTime),
  text: field('its text', ['prompt', 'text', 'message'], readText),
});

export type QueueItem = ReadRecord<typeof QUEUE_ITEM.fields>;
export const readQueueItem = (raw: unknown): QueueItem => readRecord(QUEUE_ITEM, raw);

/** Whether a refusal carries a site chat error code (send_message: `data.code`, stated). */
export function hasRefusalCode(data: unknown): boolean {
  return isRecord(data) && 'code' in data;
}
