// `sitebuilder job cancel`: cancel_job with the arguments the service shows (projectId, and
// clearSession), never a guessed `jobId` (docs/real-service.md "Chat, replies and runs"). --job
// is read with get_job first: the service stops the site's running generation, so a run that has
// ended (a state the reference lists as an end) is not cancelled in its place; any other state,
// listed or not, is sent, and the service decides. --clear-session forgets the agent's
// conversation: it confirms first (--yes in scripts; exit 5 without either, nothing sent).
import type { Context } from '../../context.js';
import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { CliError, UsageError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { sb } from '../../io/shell.js';
import { readCancelAnswer } from '../../service/chat.js';
import { known } from '../../service/read.js';
import { confirmDestructive } from '../shared/confirm.js';
import type { MethodArgs } from '../../api/method-args.js';
import { SITE_ARG } from '../shared/site-arg.js';

const ENDED: Record<string, string> = {
  succeeded: 'it succeeded',
  failed: 'it failed',
  cancelled: 'it was cancelled already',
  question: 'it ended with a question',
  plan: 'it ended with a plan',
};

/**
 * --job: the run as get_job says it is. Ended (as the reference lists the ends): nothing is sent,
 * since the cancel would stop another run. Otherwise its state, for the line printed after.
 */
async function checkNotEnded(ctx: Context, projectId: string, jobId: string): Promise<string> {
  const { readRun } = await import('../shared/run/latest-run.js');
  const run = await readRun(ctx, projectId, jobId);
  const ended = ENDED[run.outcome];
  if (ended)
    throw new CliError(`Run ${sanitizeInline(jobId)} is not going on (${ended}); nothing was cancelled.`, {
      jobId,
      outcome: run.outcome,
    });
  return run.outcome;
}

export const cancel = defineCommand({
  name: 'cancel',
  summary: 'Stop the site’s running generation',
  description:
    'Stops the run that is going on. What the agent already wrote stays, and the site’s queue stops until `sitebuilder queue resume`. --job names the run you mean: it is read first, and nothing is sent when it has ended; in any other state the cancel is sent and the service decides. With --clear-session the agent’s next conversation starts fresh, forgetting this one (asked first; --yes in scripts); with nothing running, --clear-session alone starts the next conversation fresh.',
  exitCodes: `0 cancelled (or nothing was running), 5 --clear-session needs --yes, 130 declined; ${SERVICE_EXITS}`,
  args: [SITE_ARG],
  options: [
    { flags: '--job <jobId>', description: 'the run you mean; nothing is sent when it has ended' },
    { flags: '--clear-session', description: 'the agent’s next conversation starts fresh (asks first)' },
  ],
  examples: [
    'sitebuilder job cancel site_bakery',
    'sitebuilder job cancel site_bakery --job job_000012',
    'sitebuilder job cancel site_bakery --clear-session --yes --json',
  ],
  jsonFields:
    'the service’s data (ours: { cancelled, jobId, state, creditsCharged, sessionCleared, queueStopped, waiting })',
  async run(opts, ctx) {
    const projectId = ctx.site(opts.site);
    if (opts.job !== undefined && !opts.job.trim()) throw new UsageError('--job is empty; nothing was sent.');
    if (opts.clearSession)
      await confirmDestructive(ctx, {
        action: `Clear the agent's conversation on ${sanitizeInline(projectId)}`,
        consequences: [
          'the agent forgets this conversation: its next one starts fresh',
          'the run going on, if any, is stopped; what it already wrote stays',
        ],
      });
    const before = opts.job ? await checkNotEnded(ctx, projectId, opts.job) : undefined;
    const args: MethodArgs<'cancel_job'> = { projectId };
    if (opts.clearSession) args.clearSession = true;
    const { envelope } = await ctx.api().call('cancel_job', args, { signal: ctx.signal });
    if (ctx.io.json) return ctx.io.printJson(envelope.data);
    const answer = readCancelAnswer(envelope.data);
    // The run it stopped: as the answer names it, else the run --job named, which was going on.
    // Its state: as the answer says, else `cancelled` where the reference states that transition
    // (a running or stalled run, cancelled). Otherwise no line: nothing is printed in its place.
    const jobId = known(answer.jobId) ?? opts.job;
    const stated = before === 'running' || before === 'stalled' ? 'cancelled' : undefined;
    const state = known(answer.state) ?? (jobId === opts.job ? stated : undefined);
    if (jobId && state) ctx.io.outLine(`${sanitizeInline(jobId)}\t${sanitizeInline(state)}`);
    ctx.io.info(sanitizeInline(envelope.message || 'Cancelled.'));
    if (!jobId && answer.cancelled !== false)
      ctx.io.info('The service did not say which run it stopped, so no job id is printed.');
    else if (jobId && !state)
      ctx.io.info(
        `The service did not say what became of run ${sanitizeInline(jobId)}, so nothing is printed for it; see it with: ${sb('job watch', projectId, jobId)}`,
      );
    const waiting = known(answer.waiting);
    if (typeof waiting === 'number' && waiting > 0) {
      const one = waiting === 1;
      ctx.io.info(
        `${waiting} message${one ? ' waits' : 's wait'} in the stopped queue; let ${one ? 'it' : 'them'} run with: ${sb('queue resume', projectId)}`,
      );
    }
  },
});
