import { defineCommand } from '../../core/define.js';
import { COUNTED_CALLS_MAX, readService } from './calls.js';
import { printReport } from './print.js';
import { buildReport } from './report.js';

export const doctor = defineCommand({
  name: 'doctor',
  summary: 'Check what sitebuilder can read of the service, writing nothing',
  description: `Reads GET /v1/token, /v1/tools and /v1/openapi.json (no budget) and at most ${COUNTED_CALLS_MAX} counted calls, all reads, then says of each field sitebuilder reads that the reference does not show: found and where, not found, or not checked and why; which methods and arguments the service's own description contradicts; and what it does not describe. Attach its --json to a bug report: no token, no value of your data, only ids, field paths and each answer's keys and types.`,
  args: [
    {
      name: 'site',
      description:
        'the site to look at (default: the default site, else one listed that this machine followed a run of, else the first listed)',
      pick: false,
    },
  ],
  options: [
    { flags: '--workspace <id>', description: 'the workspace whose sites are listed (default: the first one listed)' },
    {
      flags: '--job <id>',
      description:
        'the run whose events are read (default: the first the history names, else the newest this machine followed)',
    },
  ],
  examples: [
    'sitebuilder doctor',
    'sitebuilder doctor site_bakery --json > doctor.json',
    `sitebuilder doctor | awk -F'\\t' '$1 == "field" && $4 != "found"'`,
  ],
  exitCodes:
    '0 every call read, findings or not (a field not found is no failure); 1 a call refused or failed, 2 usage, 4 auth or scope, 7 rate limit',
  learnMore: 'docs/real-service.md#sitebuilder-doctor',
  jsonFields:
    '{ doctor (the layout’s version), sitebuilder, profile, baseUrl, serviceVersion, counted: { made, max }, targets: { workspace, site, run, …From, no… }, calls: [{ method, counted, args, why, outcome, status, requestId, records, error, exitCode, shape }], summary: { fields, found, notFound, notChecked }, fields: [{ resource, field, what, stated, looked, status, method, path, paths, records, foundIn, reason }], descriptions: { tools, openapi: { read, methods, unread } }, methods: [{ method, problem, sources, scope, tokenHasScope }], arguments: [{ method, argument, problem, stated, registry, service, sources }], notDescribed: [{ what, method, sources }], exitCode }',
  async run(opts, ctx) {
    const site = opts.site !== undefined || ctx.defaultSite() ? ctx.site(opts.site) : undefined;
    const given = {
      ...(opts.workspace ? { workspace: opts.workspace, workspaceFrom: '--workspace' } : {}),
      ...(site ? { site, siteFrom: opts.site !== undefined ? 'named' : 'the default site' } : {}),
      ...(opts.job ? { run: opts.job, runFrom: '--job' } : {}),
    };
    const report = buildReport(ctx, await readService(ctx, given));
    printReport(ctx.io, report);
    if (!ctx.globals.json && report.exitCode === 0)
      ctx.io.info('Meeting a new service version? Attach `sitebuilder doctor --json` to the bug report.');
    return report.exitCode;
  },
});
