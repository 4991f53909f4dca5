// send_message, and what is printed when the answer is "queued" or when the run is not followed.
// A queued message runs on its own: it is never sent again (the retry of a failed call reuses
// its Idempotency-Key, so even a retry cannot queue it twice).
import type { Envelope } from '../../../api/call.js';
import type { Context } from '../../../context.js';
import { ApiError, CliError } from '../../../errors.js';
import { hasRefusalCode, readSendAnswer } from '../../../service/chat.js';
import { isRecord, known } from '../../../service/read.js';
import { sanitizeInline } from '../../../io/sanitize.js';
import { style } from '../../../io/style.js';
import { sb } from '../../../io/shell.js';
import { rememberSiteRun } from '../run/known-runs.js';
import type { MethodArgs } from '../../../api/method-args.js';

export type Mode = 'build' | 'plan';

export type SendAnswer =
  | { queued: false; jobId: string; data: Record<string, unknown> }
  | {
      queued: true;
      queueItemId: string;
      queuePosition: number | null;
      queueResumable: boolean;
      data: Record<string, unknown>;
    };

export async function sendMessage(
  ctx: Context,
  projectId: string,
  prompt: string,
  mode: Mode,
  idempotencyKey?: string,
): Promise<SendAnswer> {
  const args: MethodArgs<'send_message'> = { projectId, prompt };
  if (mode === 'plan') args.mode = 'plan';
  let envelope: Envelope;
  try {
    ({ envelope } = await ctx.api().call('send_message', args, { idempotencyKey, signal: ctx.signal }));
  } catch (err) {
    throw err instanceof ApiError ? sendRefusal(err, projectId) : err;
  }
  const data = isRecord(envelope.data) ? envelope.data : {};
  const answer = readSendAnswer(data);
  if (answer.queued === true) {
    const queueItemId = known(answer.queueItemId) ?? '';
    // The run it starts later is not known here: until a newer run is, what waits cannot be told.
    await rememberSiteRun(ctx, projectId, { jobId: queueItemId || 'unnamed', queued: true, mode });
    return {
      queued: true,
      queueItemId,
      queuePosition: known(answer.queuePosition) ?? null,
      queueResumable: answer.queueResumable === true,
      data,
    };
  }
  const jobId = known(answer.jobId);
  if (!jobId)
    throw new CliError(
      `The service took the message but named no job id, so its run cannot be followed; see it with: ${sb('message list', projectId)}`,
    );
  await rememberSiteRun(ctx, projectId, { jobId, mode });
  return { queued: false, jobId, data };
}

/**
 * Tells where a queued message waits. In a stream (--json, followed) it is an NDJSON line. A
 * queue stopped after a failed or cancelled run (queueResumable) runs nothing until resumed: said
 * so, with `/resume` in a conversation, the command elsewhere.
 */
export function reportQueued(
  ctx: Context,
  projectId: string,
  a: Extract<SendAnswer, { queued: true }>,
  opts: { stream: boolean; conversation?: boolean },
): void {
  const { io } = ctx;
  const doc = {
    projectId,
    queued: true,
    queueItemId: a.queueItemId,
    queuePosition: a.queuePosition,
    queueResumable: a.queueResumable,
  };
  if (io.json) {
    if (opts.stream) io.printJsonLine({ type: 'queued', ...doc });
    else io.printJson(doc);
    return;
  }
  // What the answer did not say is left empty (piped) or said so, never filled in.
  const item = sanitizeInline(a.queueItemId);
  const where = `${a.queuePosition === null ? '' : ` at position ${a.queuePosition}`}${item ? ` (${item})` : ''}`;
  if (!io.stdoutIsTTY) io.outLine(`queued\t${a.queuePosition ?? ''}\t${item}`);
  else if (a.queueResumable)
    io.outLine(
      io.prose(
        `${style(io).yellow('⧗')} The queue is stopped after a failed or cancelled run: your message waits${where} and runs once the queue is resumed; do not send it again.`,
        'stdout',
      ),
    );
  else
    io.outLine(
      io.prose(
        `${style(io).cyan('⧗')} The agent is busy: your message waits in the queue${where}. It runs on its own; do not send it again.`,
        'stdout',
      ),
    );
  if (a.queuePosition === null || !item)
    io.info(
      `The service's answer did not say ${!item ? 'the queued message’s id' : 'its place in the queue'}; ${sb('queue list', projectId)} shows the queue.`,
    );
  if (opts.conversation) {
    io.info(a.queueResumable ? 'Run the queue with /resume; /queue shows it.' : '/queue shows the queue.');
    return;
  }
  if (a.queueResumable) io.info(`Run the queue with: ${sb('queue resume', projectId)}`);
  else io.info(`See the queue with: ${sb('queue list', projectId)}`);
}

/** --no-follow: the job id on stdout (or one JSON document), the command that follows it on stderr. */
export function reportStarted(ctx: Context, projectId: string, jobId: string): void {
  if (ctx.io.json) ctx.io.printJson({ projectId, queued: false, jobId });
  else ctx.io.outLine(sanitizeInline(jobId));
  ctx.io.info(`Follow it with: ${sb('job watch', projectId, jobId)}`);
}

/**
 * The service's own sentence is clear for no credits (402) and the queue caps (429 without
 * Retry-After): say it once, with what to do next, instead of adding the generic hint.
 */
export function sendRefusal(err: ApiError, projectId: string): ApiError {
  const quota = err.status === 429 && hasRefusalCode(err.data);
  if ((err.status !== 402 && !quota) || !err.serviceMessage) return err;
  const next = quota ? ` See the queue with: ${sb('queue list', projectId)}` : '';
  return err.withSentence(`${sanitizeInline(err.serviceMessage)}${next}`);
}
