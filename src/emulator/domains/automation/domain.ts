// Scheduled jobs and webhooks of a site: run_site_cron, list_site_cron_runs and
// list_webhook_deliveries (next-cursor pages, newest first, 20 a page). Our choices where the
// service leaves it open (docs/emulator.md): a run takes 5 emulated seconds and a second run of
// a job still running is refused with 409 (the service's "a scheduled job already running").
import type { SiteRecord } from '../../state.js';
import { defineDomain } from '../../types.js';
import { deployHookHandlers, deployHookHttp, seedDeployHooks, type DeployHookSlice } from './deploy-hooks.js';
import { cursorPage } from '../shared/listing.js';
import { between, DAY, HOUR, MINUTE, newestFirst, pickOne, seededRandom } from '../shared/sample-data.js';
import type { CallContext, EmulatorHost, HandlerResult } from '../../host.js';

export interface CronRecord {
  cronId: string;
  siteId: string;
  name: string;
  schedule: string;
  path: string;
}

export interface CronRunRecord {
  runId: string;
  cronId: string;
  siteId: string;
  trigger: 'schedule' | 'manual';
  startedAt: number;
  durationMs: number;
  failure: string | null;
}

export interface DeliveryRecord {
  deliveryId: string;
  webhookId: string;
  siteId: string;
  event: string;
  url: string;
  at: number;
  responseStatus: number;
  attempts: number;
}

export interface AutomationSlice extends DeployHookSlice {
  crons: CronRecord[];
  cronRuns: CronRunRecord[];
  deliveries: DeliveryRecord[];
}

export const AUTOMATION_DOMAIN = 'automation';
export const CRON_RUN_MS = 5_000;
const PAGE = 20;

export const automationSlice = (emu: EmulatorHost) => emu.slice<AutomationSlice>(AUTOMATION_DOMAIN);

function runView(emu: EmulatorHost, r: CronRunRecord) {
  const done = emu.clock.now() >= r.startedAt + r.durationMs;
  return {
    runId: r.runId,
    cronId: r.cronId,
    trigger: r.trigger,
    status: !done ? 'running' : r.failure ? 'failed' : 'succeeded',
    startedAt: emu.iso(r.startedAt),
    finishedAt: done ? emu.iso(r.startedAt + r.durationMs) : null,
    error: done && r.failure ? { message: r.failure } : null,
  };
}

function cronOf(call: CallContext, site: SiteRecord, cronId: string): CronRecord {
  const cron = automationSlice(call.emu).crons.find((c) => c.siteId === site._id && c.cronId === cronId);
  if (!cron) call.refuse(404, `No scheduled job has the id "${cronId}" on this site.`, { reason: 'not-found', cronId });
  return cron!;
}

function runSiteCron(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  // run_site_cron requires cronId (list_site_cron_runs leaves it optional).
  const cron = cronOf(call, site, call.args.cronId!);
  const slice = automationSlice(call.emu);
  const running = slice.cronRuns.find((r) => r.cronId === cron.cronId && call.now() < r.startedAt + r.durationMs);
  if (running)
    call.refuse(409, `The scheduled job "${cron.name}" is already running. Wait for it to finish, then try again!`, {
      activeRun: running.runId,
    });
  const run: CronRunRecord = {
    runId: call.emu.newId('cronrun'),
    cronId: cron.cronId,
    siteId: site._id,
    trigger: 'manual',
    startedAt: call.now(),
    durationMs: CRON_RUN_MS,
    failure: null,
  };
  slice.cronRuns.push(run);
  return { data: runView(call.emu, run), message: `The scheduled job "${cron.name}" is running.` };
}

function listSiteCronRuns(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  if (call.args.cronId !== undefined) cronOf(call, site, call.args.cronId);
  const runs = automationSlice(call.emu).cronRuns.filter(
    (r) => r.siteId === site._id && (call.args.cronId === undefined || r.cronId === call.args.cronId),
  );
  return cursorPage(
    newestFirst(runs, (r) => r.startedAt).map((r) => runView(call.emu, r)),
    call.args,
    PAGE,
    'runs',
  );
}

function listWebhookDeliveries(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const all = automationSlice(call.emu).deliveries.filter(
    (d) => d.siteId === site._id && (call.args.webhookId === undefined || d.webhookId === call.args.webhookId),
  );
  const view = (d: DeliveryRecord) => ({
    ...d,
    at: call.emu.iso(d.at),
    status: d.responseStatus < 300 ? 'delivered' : 'failed',
  });
  return cursorPage(newestFirst(all, (d) => d.at).map(view), call.args, PAGE, 'deliveries');
}

function seed(emu: EmulatorHost, slice: AutomationSlice): void {
  const now = emu.clock.now();
  const random = seededRandom('automation');
  const crons: CronRecord[] = [
    {
      cronId: 'cron_bakery_digest',
      siteId: 'site_bakery',
      name: 'Weekly newsletter digest',
      schedule: '0 8 * * MON',
      path: '/api/cron/digest',
    },
    {
      cronId: 'cron_bakery_stock',
      siteId: 'site_bakery',
      name: 'Sync stock levels',
      schedule: '0 */6 * * *',
      path: '/api/cron/stock',
    },
    {
      cronId: 'cron_docs_links',
      siteId: 'site_docs',
      name: 'Check broken links',
      schedule: '30 2 * * *',
      path: '/api/cron/links',
    },
  ].filter((c) => emu.site(c.siteId));
  slice.crons.push(...crons);
  for (const cron of crons) {
    const every = cron.cronId === 'cron_bakery_stock' ? 6 * HOUR : cron.cronId === 'cron_docs_links' ? DAY : 7 * DAY;
    for (let i = 1; i <= 24; i++) {
      const failure = random() < 0.1 ? 'The job answered HTTP 500.' : null;
      slice.cronRuns.push({
        runId: emu.newId('cronrun'),
        cronId: cron.cronId,
        siteId: cron.siteId,
        trigger: 'schedule',
        startedAt: now - i * every,
        durationMs: between(random, 800, 9_000),
        failure,
      });
    }
  }
  if (emu.site('site_bakery')) {
    for (let i = 1; i <= 30; i++) {
      const failed = random() < 0.15;
      slice.deliveries.push({
        deliveryId: emu.newId('dlv'),
        webhookId: 'whk_bakery_orders',
        siteId: 'site_bakery',
        event: pickOne(random, ['form.submitted', 'form.submitted', 'site.published', 'collection.row.created']),
        url: 'https://orders.sunrisebakery.example/hooks/sitebuilder',
        at: now - i * 5 * HOUR - between(random, 0, 59) * MINUTE,
        responseStatus: failed ? pickOne(random, [500, 502, 404]) : 200,
        attempts: failed ? 3 : 1,
      });
    }
  }
  seedDeployHooks(emu, slice);
}

export const automationDomain = defineDomain<AutomationSlice>({
  name: AUTOMATION_DOMAIN,
  init: (): AutomationSlice => ({ crons: [], cronRuns: [], deliveries: [], hooks: [], hookCalls: [], hookWindows: {} }),
  seed,
  handlers: {
    run_site_cron: runSiteCron,
    list_site_cron_runs: listSiteCronRuns,
    list_webhook_deliveries: listWebhookDeliveries,
    ...deployHookHandlers,
  },
  http: deployHookHttp,
});
