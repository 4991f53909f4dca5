import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { CliError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { sb } from '../../io/shell.js';
import { readResumeAnswer } from '../../service/chat.js';
import { rememberSiteRun } from '../shared/run/known-runs.js';
import { SITE_ARG } from '../shared/site-arg.js';

export const resume = defineCommand({
  name: 'resume',
  summary: 'Restart a queue stopped after a failed or cancelled run',
  description:
    'A failed or cancelled run stops the site’s queue: waiting messages stay until the queue is resumed. Resuming runs them in order, the first one at once; its job id is printed (when the service names it) with the command that follows it.',
  exitCodes: `0 resumed; ${SERVICE_EXITS}`,
  args: [SITE_ARG],
  examples: ['sitebuilder queue resume site_bakery', 'sitebuilder queue resume site_bakery --json'],
  jsonFields: 'the service’s data (ours: { resumed, waiting, jobId }; jobId: the run that started, if any)',
  async run(opts, ctx) {
    const projectId = ctx.site(opts.site);
    const { envelope } = await ctx.api().call('resume_queue', { projectId }, { signal: ctx.signal });
    // The started run's id is not a field the service shows (service/chat.ts reads it).
    const { started, resumed } = readResumeAnswer(envelope.data);
    const jobId = typeof started === 'object' ? started.jobId : undefined;
    if (jobId) await rememberSiteRun(ctx, projectId, { jobId });
    if (ctx.io.json) return ctx.io.printJson(envelope.data);
    if (jobId) ctx.io.outLine(sanitizeInline(jobId));
    ctx.io.info(
      sanitizeInline(envelope.message || (resumed === false ? 'The queue was not stopped.' : 'The queue runs again.')),
    );
    if (jobId) ctx.io.info(`Follow it with: ${sb('job watch', projectId, jobId)}`);
    else if (resumed !== false && started === 'not said')
      // The job id is the command's stdout: not named, nothing is printed in its place and the
      // exit code says so, so that `JOB=$(…) && next` stops (docs/real-service.md "Unread is said").
      throw new CliError(
        `The queue runs again, but the service's answer did not name the run it started, so no job id is printed; see it with: ${sb('message list', projectId)}`,
        { siteId: projectId },
      );
  },
});
