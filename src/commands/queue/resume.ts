import { pick, pickString } from '../../io/records.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { defineCommand } from '../../core/define.js';

interface ResumeOptions {
  site?: string;
}

export const resume = defineCommand<ResumeOptions>({
  name: 'resume',
  summary: 'Restart a queue stopped after a failed or cancelled run',
  description:
    'A failed or cancelled run stops the site’s queue: waiting messages stay until the queue is resumed. Resuming runs them in order, the first one at once.',
  args: [{ name: 'site', description: 'the site (default: `site use` or SITEBUILDER_SITE)' }],
  examples: ['sitebuilder queue resume site_bakery', 'sitebuilder queue resume site_bakery --json'],
  jsonFields: 'the service’s data: { resumed, waiting, jobId } (jobId: the run that started, if any)',
  async run(opts, ctx) {
    const projectId = ctx.site(opts.site);
    const { envelope } = await ctx.api().call('resume_queue', { projectId }, { signal: ctx.signal });
    if (ctx.io.json) return ctx.io.printJson(envelope.data);
    const jobId = pickString(envelope.data, 'jobId');
    if (jobId) ctx.io.outLine(sanitizeInline(jobId));
    ctx.io.info(
      sanitizeInline(
        envelope.message ||
          (pick(envelope.data, 'resumed') === false ? 'The queue was not stopped.' : 'The queue runs again.'),
      ),
    );
    if (jobId) ctx.io.info(`Follow it with: sitebuilder job watch ${projectId} ${jobId}`);
  },
});
