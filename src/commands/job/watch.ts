import { defineCommand, parseDuration, SERVICE_EXITS } from '../../core/define.js';
import { RECONNECT_FOR_OPTION } from '../shared/reconnect-option.js';
import { SITE_ID_ARG } from '../shared/site-arg.js';

export const watch = defineCommand({
  name: 'watch',
  summary: 'Attach to a run and follow it to its end',
  description:
    'Read a run from its start, print a short recap (the last lines of text, the task list, the files changed), then follow it live, as chat does. Ctrl-C stops following (the run goes on); Esc cancels the run, asking first. With --json, every event from the start.',
  exitCodes: `0 succeeded, 6 failed, 10 question, 11 plan, 8 --timeout or no connection, 130 Esc or Ctrl-C; ${SERVICE_EXITS}`,
  args: [
    SITE_ID_ARG,
    { name: 'jobId', description: 'the run (printed by chat --no-follow, site create, queue resume)', required: true },
  ],
  options: [
    {
      flags: '--timeout <duration>',
      description: 'stop following after this long (exit 8), e.g. 90s, 5m',
      parse: parseDuration('--timeout'),
    },
    RECONNECT_FOR_OPTION,
  ],
  examples: [
    'sitebuilder job watch site_bakery job_000012',
    'sitebuilder job watch site_bakery job_000012 --json > run.ndjson',
  ],
  jsonFields:
    'NDJSON as for chat: {"type":"start"}, the events unchanged, {"type":"state"}, {"type":"reset"}, and one last {"type":"end",state,outcome,exitCode,creditsCharged,error,pending,reattach,reason}',
  async run(opts, ctx) {
    // The renderer loads only when a run is followed.
    const [
      { createRunView },
      { agentAsks, answerLines, pendingOf, PLAN_NOT_SHOWN },
      { exitCodeOf, followJob, watchCommand },
      { agentLine },
      { sayStopped },
    ] = await Promise.all([
      import('../../render/views.js'),
      import('../shared/run/next-steps.js'),
      import('../shared/run/follow.js'),
      import('../../render/agent-text.js'),
      import('../shared/run/run-keys.js'),
    ]);
    const projectId = ctx.site(opts.site);
    const view = createRunView(ctx.io, ctx.clock, undefined, {
      redraw: ctx.env.TERM !== 'dumb',
      debug: (line) => ctx.debug(line),
    });
    const r = await followJob(ctx, {
      projectId,
      jobId: opts.jobId,
      view,
      timeoutMs: opts.timeout,
      recap: !ctx.io.json,
      remember: 'followed',
      reconnectForMs: opts.reconnectFor,
    });
    const pending = pendingOf(r.state, projectId, opts.jobId);
    const exitCode = exitCodeOf(r);
    const reattach =
      r.outcome === 'detached' || r.outcome === 'timeout' ? watchCommand(projectId, opts.jobId) : undefined;
    view.end({ ...r, exitCode, pending, reattach });
    if (r.error) throw r.error;
    if (reattach) sayStopped(ctx, r, projectId, opts.jobId);
    if (pending && !ctx.io.json && !ctx.io.quiet) {
      ctx.io.errLine(
        pending.kind === 'question'
          ? `${pending.question === null ? agentAsks(null) : `The agent asks: ${await agentLine(ctx.io, pending.question)}`} Answer with one of:`
          : `${pending.plan === null ? `${PLAN_NOT_SHOWN} ` : ''}The plan waits; answer with one of:`,
      );
      for (const line of answerLines(pending)) ctx.io.errLine(line);
    }
    return exitCode;
  },
});
