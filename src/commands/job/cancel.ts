// `sitebuilder job cancel`: cancel_job with the arguments the service shows (projectId, and
// clearSession), never a guessed `jobId` (docs/real-service.md "Chat, replies and runs"). --job
// is checked here with get_job first: the service stops the site's running generation, so the
// run named must be the one running. --clear-session forgets the agent's conversation: it
// confirms first (--yes in scripts; exit 5 without either, nothing sent).
import type { Context } from '../../context.js';
import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { CliError, UsageError } from '../../errors.js';
import { pick, pickString } from '../../io/records.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { confirmDestructive } from '../confirm.js';
import { sb } from '../../io/shell.js';

interface CancelOptions {
  site?: string;
  job?: string;
  clearSession?: boolean;
}

/** --job: the run must be the one going on; one get_job says so, or why nothing is sent. */
async function checkRunning(ctx: Context, projectId: string, jobId: string): Promise<void> {
  const { readRun } = await import('../chat/latest-run.js');
  const run = await readRun(ctx, projectId, jobId);
  if (run.outcome === 'running' || run.outcome === 'stalled') return;
  const how = run.outcome === 'question' || run.outcome === 'plan' ? `ended with a ${run.outcome}` : run.outcome;
  throw new CliError(`Run ${sanitizeInline(jobId)} is not running (it ${how}); nothing was cancelled.`, {
    jobId,
    outcome: run.outcome,
  });
}

export const cancel = defineCommand<CancelOptions>({
  name: 'cancel',
  summary: 'Stop the site’s running generation',
  description:
    'Stops the run that is going on. What the agent already wrote stays, and the site’s queue stops until `sitebuilder queue resume`. --job names the run you mean: it is checked to be the one running, and nothing is sent otherwise. With --clear-session the agent’s next conversation starts fresh, forgetting this one (asked first; --yes in scripts); with nothing running, --clear-session alone starts the next conversation fresh.',
  exitCodes: `0 cancelled (or nothing was running), 5 --clear-session needs --yes, 130 declined; ${SERVICE_EXITS}`,
  args: [{ name: 'site', description: 'the site (default: `site use` or SITEBUILDER_SITE)' }],
  options: [
    { flags: '--job <jobId>', description: 'the run you mean; nothing is sent unless it is the one running' },
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
    if (opts.job) await checkRunning(ctx, projectId, opts.job);
    const args: Record<string, unknown> = { projectId };
    if (opts.clearSession) args.clearSession = true;
    const { envelope } = await ctx.api().call('cancel_job', args, { signal: ctx.signal });
    if (ctx.io.json) return ctx.io.printJson(envelope.data);
    const data = envelope.data;
    const jobId = pickString(data, 'jobId', 'cancelledJobId', 'job_id') ?? opts.job;
    const state = pickString(data, 'state', 'status') ?? 'cancelled';
    if (jobId) ctx.io.outLine(`${sanitizeInline(jobId)}\t${sanitizeInline(state)}`);
    ctx.io.info(sanitizeInline(envelope.message || 'Cancelled.'));
    if (!jobId && pick(data, 'cancelled') !== false)
      ctx.io.info('The service did not say which run it stopped, so no job id is printed.');
    const waiting = pick(data, 'waiting', 'waitingCount', 'queued', 'queueLength');
    if (typeof waiting === 'number' && waiting > 0) {
      const one = waiting === 1;
      ctx.io.info(
        `${waiting} message${one ? ' waits' : 's wait'} in the stopped queue; let ${one ? 'it' : 'them'} run with: ${sb('queue resume', projectId)}`,
      );
    }
  },
});
