import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { asRecord, pick, pickString } from '../../io/records.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { rememberSiteRun } from '../job/known-runs.js';
import { sb } from '../../io/shell.js';

/** Where the run it started may be named (null there: none started). */
const JOB_FIELDS = ['jobId', 'startedJobId', 'job_id'];

interface ResumeOptions {
  site?: string;
}

export const resume = defineCommand<ResumeOptions>({
  name: 'resume',
  summary: 'Restart a queue stopped after a failed or cancelled run',
  description:
    'A failed or cancelled run stops the site’s queue: waiting messages stay until the queue is resumed. Resuming runs them in order, the first one at once; its job id is printed (when the service names it) with the command that follows it.',
  exitCodes: `0 resumed; ${SERVICE_EXITS}`,
  args: [{ name: 'site', description: 'the site (default: `site use` or SITEBUILDER_SITE)' }],
  examples: ['sitebuilder queue resume site_bakery', 'sitebuilder queue resume site_bakery --json'],
  jsonFields: 'the service’s data (ours: { resumed, waiting, jobId }; jobId: the run that started, if any)',
  async run(opts, ctx) {
    const projectId = ctx.site(opts.site);
    const { envelope } = await ctx.api().call('resume_queue', { projectId }, { signal: ctx.signal });
    // The started run's id is not a field the service shows: read under the obvious names.
    const jobId = pickString(envelope.data, ...JOB_FIELDS);
    if (jobId) await rememberSiteRun(ctx, projectId, { jobId });
    if (ctx.io.json) return ctx.io.printJson(envelope.data);
    if (jobId) ctx.io.outLine(sanitizeInline(jobId));
    ctx.io.info(
      sanitizeInline(
        envelope.message ||
          (pick(envelope.data, 'resumed') === false ? 'The queue was not stopped.' : 'The queue runs again.'),
      ),
    );
    if (jobId) ctx.io.info(`Follow it with: ${sb('job watch', projectId, jobId)}`);
    else if (pick(envelope.data, 'resumed') !== false && !JOB_FIELDS.some((k) => k in asRecord(envelope.data)))
      ctx.io.info(`The service did not name the run it started; see it with: ${sb('message list', projectId)}`);
  },
});
