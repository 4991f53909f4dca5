// The alternate shapes: for every choice the emulator makes where the service's reference says
// "not shown", another plausible one (docs/emulator.md "Shapes"). Everything the reference
// states stays as it is: the envelope's fields, `_id`, `jobId` and `queued` in send_message's
// answer, get_job's `state`, `cursor`, `events`, `creditsCharged`, `reset` and `error`, the
// `ask_user` event, the paging fields (`count`, `hasMore`, `nextCursor`, `nextToken`,
// `oldestCursor`), `queueItemId`, `queuePosition`, `queueResumable`, `QueueVersion`,
// `BackupId`, `codeBackupId`, `backupId`, `domainId`, `dkimStatus`, `canRestart`,
// `emailDomains.items`, the storage restore plan's counts and `confirm`, `running` and `ready`
// of a publish, `completed` of a restore, and every message and limit.
//
// Each method's data goes through one rule of rules.ts; the rules are data, so the docs table
// and the tests (test/emulator/shapes.test.ts) read the same choices the emulator applies.
import { applyRule, type Rule } from './rules.js';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});

/** A rule plus more fields and renames (for a record that adds to another's shape). */
const extend = (base: Rule, more: Rule): Rule => ({
  ...base,
  ...more,
  fields: { ...base.fields, ...more.fields },
  rename: { ...base.rename, ...more.rename },
});

// ---- records ---------------------------------------------------------------------------

export const WORKSPACE: Rule = { rename: { name: 'title', credits: 'creditBalance' } };

export const SITE: Rule = {
  epochMs: ['createdAt', 'updatedAt'],
  rename: { name: 'title', publishedUrl: 'liveUrl', publishedAt: 'lastPublishedAt' },
};

export const MESSAGE: Rule = {
  drop: ['jobId'],
  values: { role: { agent: 'assistant' } },
  rename: { text: 'content', author: 'userId' },
};

export const QUEUE_ITEM: Rule = { rename: { prompt: 'text', author: 'createdBy' } };

/** Publish statuses besides `ready` (the one the reference shows). */
export const PUBLISH_STATUS = {
  queued: 'pending',
  building: 'in_progress',
  deploying: 'in_progress',
  failed: 'error',
  unpublished: 'never_published',
};

/** publish_site, get_publish_status and list_deployments: no `url`, the address in `publicUrl`. */
export const DEPLOYMENT: Rule = {
  values: { status: PUBLISH_STATUS },
  fields: { error: { rename: { message: 'detail' } } },
  rename: {
    deploymentId: '_id',
    url: 'publicUrl',
    startedAt: 'createdAt',
    finishedAt: 'completedAt',
    createdBy: 'author',
    live: 'isLive',
    files: 'fileCount',
  },
};

export const SITE_BACKUP: Rule = {
  epochMs: ['createdAt'],
  values: { type: { daily: 'scheduled', manual: 'user' } },
  rename: { label: 'name', pages: 'pageCount', components: 'componentCount' },
};

export const CODE_BACKUP: Rule = {
  epochMs: ['createdAt'],
  rename: { label: 'message', jobId: 'runId', files: 'fileCount' },
};

export const STORAGE_BACKUP: Rule = {
  // No progress counts: the CLI keeps its spinner where a service gives none.
  drop: ['progress'],
  epochMs: ['createdAt', 'readyAt'],
  values: { status: { archiving: 'pending', ready: 'available', failed: 'error' } },
  rename: { label: 'name', files: 'fileCount', sizeBytes: 'size', notRestorableReason: 'reason' },
};

/** Only the plan's additions of ours are renamed: its counts, safetyBackup and filesSkipped are stated. */
export const RESTORE_PLAN: Rule = { rename: { replacedFiles: 'filesToReplace', removedFiles: 'filesToRemove' } };

export const RESTORE_ROW: Rule = {
  drop: ['restoreId', 'progress'],
  values: { status: { running: 'in_progress' } },
  fields: { plan: RESTORE_PLAN },
  rename: { projectId: 'siteId', safetyBackupId: 'beforeRestoreBackupId', completedAt: 'finishedAt' },
};

export const DNS_RECORD: Rule = { rename: { host: 'name' } };

export const EMAIL_DOMAIN: Rule = {
  values: { setup: { done: 'complete', missing: 'incomplete' } },
  fields: { dkimRecords: { each: DNS_RECORD }, ownershipRecord: DNS_RECORD },
  rename: {
    domain: 'name',
    dkimRecords: 'dkim',
    ownershipRecord: 'ownership',
    verified: 'isVerified',
    paused: 'isPaused',
  },
};

export const CRON_RUN: Rule = {
  values: { status: { succeeded: 'success', failed: 'failure' } },
  fields: { error: { rename: { message: 'detail' } } },
  rename: { runId: '_id', trigger: 'triggeredBy' },
};

export const HOOK_CALL: Rule = { rename: { callId: '_id', via: 'source' } };

/** A page of records under data.items: the list renamed, its order inside the page reversed. */
const page = (each: Rule, as: string, more: Rule = {}): Rule =>
  extend({ fields: { items: { reverse: true, each } }, rename: { items: as } }, more);

// ---- events ------------------------------------------------------------------------------

/** The `data` of each event kind but ask_user (whose shape the reference states). */
export const EVENT_DATA: Record<string, Rule> = {
  text: { rename: { text: 'content' } },
  todos: {
    fields: {
      items: { each: { drop: ['id'], values: { status: { done: 'completed' } }, rename: { title: 'content' } } },
    },
    rename: { items: 'todos' },
  },
  tool_call: { rename: { id: 'toolCallId' } },
  tool_result: {
    rename: { id: 'toolCallId', ok: 'isError', summary: 'output' },
    // isError is the opposite of ok.
    map: (d) => {
      const r = rec(d);
      return typeof r.isError === 'boolean' ? { ...r, isError: !r.isError } : r;
    },
  },
  file_changed: { rename: { path: 'filePath', action: 'changeType' } },
  file_deleted: { rename: { path: 'filePath' } },
  plan_approval_requested: { rename: { steps: 'stepCount' } },
  credits_used: { rename: { credits: 'amount' } },
  error: { rename: { code: 'type', message: 'detail' } },
};

/** An event: its data reshaped (ask_user left exactly as stated), plus its number in the log. */
function shapeEvent(raw: unknown, seq: number): Rec {
  const ev = rec(raw);
  const data = rec(ev.data);
  const asks = ev.event === 'tool_call' && data.name === 'ask_user';
  const rule = asks ? undefined : EVENT_DATA[String(ev.event)];
  return { ...ev, data: rule ? applyRule(data, rule) : ev.data, seq };
}

const JOB: Rule = {
  fields: { error: EVENT_DATA.error },
  map: (job) => {
    const j = rec(job);
    const events = Array.isArray(j.events) ? j.events : [];
    const last = typeof j.cursor === 'number' ? j.cursor : events.length;
    return { ...j, events: events.map((e, i) => shapeEvent(e, last - events.length + 1 + i)) };
  },
};

// ---- the methods -----------------------------------------------------------------------

export const METHOD_RULES: Record<string, Rule> = {
  list_workspaces: { reverse: true, each: WORKSPACE },
  list_sites: { reverse: true, each: SITE },
  create_site: { fields: { site: SITE }, rename: { site: 'project' } },

  get_job: JOB,
  cancel_job: { rename: { jobId: 'cancelledJobId', waiting: 'waitingCount' } },
  list_messages: page(MESSAGE, 'messages'),
  list_queued_messages: {
    fields: { items: { each: QUEUE_ITEM } },
    rename: { items: 'queue', stopped: 'queueStopped', running: 'activeJobId' },
  },
  edit_queued_message: QUEUE_ITEM,
  reorder_queued_message: { fields: { item: QUEUE_ITEM, items: { each: QUEUE_ITEM } }, rename: { items: 'queue' } },
  remove_queued_message: { fields: { removed: QUEUE_ITEM }, rename: { waiting: 'remaining' } },
  resume_queue: { rename: { jobId: 'startedJobId' } },

  upload_storage_file: { epochMs: ['updatedAt'], rename: { url: 'publicUrl', path: 'fileName' } },
  publish_site: DEPLOYMENT,
  get_publish_status: DEPLOYMENT,
  list_deployments: { reverse: true, each: DEPLOYMENT },
  get_publish_logs: {
    fields: { items: { each: { rename: { at: 'time', message: 'line' } } } },
    rename: { items: 'lines' },
  },

  list_templates: { reverse: true, each: { rename: { name: 'title' } } },
  list_workspace_members: { reverse: true, each: { rename: { userId: '_id', name: 'displayName' } } },
  list_workspace_credit_activity: page(
    { values: { kind: { spend: 'debit', 'top-up': 'credit' } }, rename: { at: 'createdAt', note: 'description' } },
    'entries',
    { rename: { nextOffset: 'nextPageOffset' } },
  ),

  list_backups: page(SITE_BACKUP, 'backups'),
  restore_backup: { fields: { preRestoreBackup: SITE_BACKUP }, rename: { preRestoreBackup: 'createdBackup' } },
  list_code_backups: page(CODE_BACKUP, 'backups', { rename: { totalPages: 'pageCount' } }),
  restore_code_backup: {
    rename: {
      cancelledJobId: 'stoppedJobId',
      filesReverted: 'revertedFiles',
      filesDeleted: 'deletedFiles',
      filesRestored: 'restoredFiles',
      messagesDeleted: 'deletedMessageCount',
      queuedMessagesDiscarded: 'discardedQueueCount',
    },
  },
  list_storage_backups: page(STORAGE_BACKUP, 'backups', { rename: { totalPages: 'pageCount' } }),
  browse_storage_backup: {
    fields: { items: { each: { rename: { type: 'kind', files: 'fileCount' } } } },
    rename: { items: 'entries' },
  },
  read_storage_backup_file: { drop: ['encoding'], rename: { content: 'contentBase64' } },
  create_storage_backup: STORAGE_BACKUP,
  clear_storage_backups: { rename: { deleted: 'deletedCount', backupIds: 'deletedBackupIds' } },
  restore_storage_backup: { fields: { plan: RESTORE_PLAN, restore: RESTORE_ROW } },
  get_storage_restore_status: RESTORE_ROW,
  list_database_backups: page(
    { epochMs: ['createdAt'], rename: { sizeBytes: 'size', tables: 'tableCount' } },
    'backups',
    { rename: { totalPages: 'pageCount' } },
  ),
  list_storage_files: page({ epochMs: ['updatedAt'], rename: { url: 'publicUrl' } }, 'files'),

  get_site_email_settings: {
    fields: { emailDomains: { fields: { items: { each: EMAIL_DOMAIN } } } },
    rename: { senderAddress: 'fromAddress' },
  },
  restart_site_email_domain_verification: extend(EMAIL_DOMAIN, {
    fields: { previousDkimRecords: { each: DNS_RECORD } },
    rename: { previousDkimRecords: 'oldDkim', restartsLeftThisHour: 'remainingRestarts' },
  }),
  list_site_email_sends: page({ rename: { at: 'sentAt' } }, 'sends'),
  list_site_email_engagement: page({ rename: { type: 'kind', at: 'occurredAt' } }, 'events'),
  list_site_email_suppressions: page({ rename: { address: 'email', at: 'createdAt' } }, 'suppressions'),

  run_site_cron: CRON_RUN,
  list_site_cron_runs: page(CRON_RUN, 'runs'),
  trigger_deploy_hook: HOOK_CALL,
  list_deploy_hook_calls: page(HOOK_CALL, 'calls'),
  list_webhook_deliveries: page({ rename: { responseStatus: 'httpStatus', attempts: 'attemptCount' } }, 'deliveries'),
  list_rows: { reverse: true },
  export_collection: { rename: { rowCount: 'total', fields: 'columns' } },
  set_secret: { epochMs: ['updatedAt'], rename: { created: 'isNew' } },
  get_site_analytics: {
    fields: { totals: { rename: { pageViews: 'views' } }, days: { each: { rename: { pageViews: 'views' } } } },
    rename: { days: 'series' },
  },
  get_site_analytics_pages: {
    fields: { items: { each: { rename: { path: 'page', pageViews: 'views' } } } },
    rename: { items: 'pages' },
  },
  get_site_analytics_referrers: {
    fields: { items: { each: { rename: { referrer: 'source' } } } },
    rename: { items: 'referrers' },
  },

  // The two GET addresses with a payload of their own (the OpenAPI document stays as it is).
  'GET /v1/token': {
    fields: {
      workspaces: { each: { map: (w) => rec(w)._id } },
      rateLimit: { rename: { reset: 'resetSeconds' } },
    },
    rename: { workspaces: 'workspaceIds', expiresAt: 'expiry' },
  },
  'GET /v1/tools': {
    each: {
      map: (t) => {
        const { write, destructive, listing, permission, ...rest } = rec(t);
        return {
          ...rest,
          annotations: { readOnlyHint: write === false, destructiveHint: destructive === true },
          ...(listing !== undefined ? { pagination: listing } : {}),
          ...(permission !== undefined ? { requiredPermission: permission } : {}),
        };
      },
    },
  },
};

/** The data of refusals that carry records: reshaped as the records are in answers. */
export const REFUSAL_RULES: Record<string, Rule> = {
  edit_queued_message: { fields: { item: QUEUE_ITEM } },
  restore_storage_backup: { fields: { activeRestore: RESTORE_ROW, plan: RESTORE_PLAN } },
  create_storage_backup: { fields: { activeRestore: RESTORE_ROW } },
  clear_storage_backups: { fields: { activeRestore: RESTORE_ROW } },
  trigger_deploy_hook: { fields: { call: HOOK_CALL } },
};

/** The site chat error codes (`data.code` of refusals; the list is not shown): upper case. */
export const chatCode = (code: string): string => code.toUpperCase();

/**
 * Other names a service might give arguments the reference does not show: taken as well as
 * ours (so the first-class commands still work, and `sitebuilder api` can be tried with them).
 */
export const ARG_ALIASES: Record<string, Record<string, string>> = {
  upload_storage_file: { path: 'fileName', content: 'contentBase64' },
};

/** The seeded site whose id has another form than site_…, in the alternate shapes only. */
export const ALTERNATE_SEED_SITE = {
  _id: '66c3a1f09b2e4d5c8a7b6e01',
  name: 'Harbour Café',
  prompt: 'A café by the harbour with a menu, opening hours and a page for events.',
  daysAgo: 12,
} as const;
