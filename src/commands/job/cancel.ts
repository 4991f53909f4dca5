import { defineCommand } from '../../core/define.js';
import { pick, pickString } from '../../io/records.js';
import { sanitizeInline } from '../../io/sanitize.js';

interface CancelOptions {
  site?: string;
  job?: string;
  clearSession?: boolean;
}

export const cancel = defineCommand<CancelOptions>({
  name: 'cancel',
  summary: 'Stop the site’s running generation',
  description:
    'Stops the run that is going on (or the one named with --job). What the agent already wrote stays, and the site’s queue stops until `sitebuilder queue resume`. With --clear-session the agent’s next conversation starts fresh, forgetting this one; with nothing running, --clear-session alone starts the next conversation fresh.',
  args: [{ name: 'site', description: 'the site (default: `site use` or SITEBUILDER_SITE)' }],
  options: [
    { flags: '--job <jobId>', description: 'cancel this run only (refused when it already ended)' },
    { flags: '--clear-session', description: 'the agent’s next conversation starts fresh' },
  ],
  examples: ['sitebuilder job cancel site_bakery', 'sitebuilder job cancel site_bakery --clear-session --json'],
  jsonFields: 'the service’s data: { cancelled, jobId, state, creditsCharged, sessionCleared, queueStopped, waiting }',
  async run(opts, ctx) {
    const projectId = ctx.site(opts.site);
    const args: Record<string, unknown> = { projectId };
    if (opts.job) args.jobId = opts.job;
    if (opts.clearSession) args.clearSession = true;
    const { envelope } = await ctx.api().call('cancel_job', args, { signal: ctx.signal });
    if (ctx.io.json) return ctx.io.printJson(envelope.data);
    const jobId = pickString(envelope.data, 'jobId');
    if (jobId) ctx.io.outLine(`${sanitizeInline(jobId)}\t${pickString(envelope.data, 'state') ?? 'cancelled'}`);
    ctx.io.info(sanitizeInline(envelope.message || 'Cancelled.'));
    const waiting = pick(envelope.data, 'waiting');
    if (typeof waiting === 'number' && waiting > 0) {
      const one = waiting === 1;
      ctx.io.info(
        `${waiting} message${one ? ' waits' : 's wait'} in the stopped queue; let ${one ? 'it' : 'them'} run with: sitebuilder queue resume ${projectId}`,
      );
    }
  },
});
