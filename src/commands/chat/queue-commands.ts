// /cancel and /resume in a conversation (interactive.ts), on the site's queue at the service: its
// run cancelled, its stopped queue run again. A refusal is said, and the conversation goes on.
import type { Context } from '../../context.js';
import { ApiError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { readResumeAnswer } from '../../service/chat.js';
import { rememberSiteRun } from '../shared/run/known-runs.js';

/** /cancel: cancels the site's run. */
export async function cancelSiteRun(ctx: Context, projectId: string): Promise<void> {
  try {
    const { envelope } = await ctx.api().call('cancel_job', { projectId }, { signal: ctx.signal });
    ctx.io.errLine(sanitizeInline(envelope.message || 'Cancelled.'));
  } catch (err) {
    // A refusal (409: nothing runs; a missing scope…) is said, and the conversation goes on.
    if (!(err instanceof ApiError)) throw err;
    ctx.io.errLine(
      err.status === 409
        ? sanitizeInline(err.serviceMessage || 'Nothing is running; nothing was cancelled.')
        : `Could not cancel: ${err.message}`,
    );
  }
}

/** /resume: runs the stopped queue; answers the run it started, when the service names it. */
export async function resumeQueue(ctx: Context, projectId: string): Promise<string | undefined> {
  try {
    const { envelope } = await ctx.api().call('resume_queue', { projectId }, { signal: ctx.signal });
    const { started } = readResumeAnswer(envelope.data);
    const jobId = typeof started === 'object' ? started.jobId : undefined;
    ctx.io.errLine(sanitizeInline(envelope.message || 'The queue runs again.'));
    if (jobId) await rememberSiteRun(ctx, projectId, { jobId });
    return jobId;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    ctx.io.errLine(`Could not resume the queue: ${err.message}`);
    return undefined;
  }
}
