// What the random shapes never rename: the fields the service's reference names
// (/work/shared/spec/service-api.md; docs/emulator.md "The service in short"). Paths use the
// emulator's own names, dotted, with `[]` for the records of a list; `data` of a method whose
// path is listed keeps that name wherever it was moved from. Everything else is drawn.

/** The paging fields, stated for every listing at the top of its data. */
const PAGING = ['hasMore', 'nextCursor', 'nextToken', 'oldestCursor'];

const QUEUE_ITEM = ['queueItemId', 'queuePosition', 'QueueVersion', 'queueResumable'];
const under = (prefix: string, names: string[]) => names.map((n) => `${prefix}${n}`);

export const STATED_PATHS: Record<string, readonly string[]> = {
  list_workspaces: ['[]._id'],
  list_sites: ['[]._id'],
  create_site: ['jobId', 'site._id'],
  send_message: ['queued', 'jobId', ...QUEUE_ITEM],
  get_job: ['jobId', 'state', 'cursor', 'events', 'creditsCharged', 'reset', 'error'],
  list_queued_messages: [...under('items[].', QUEUE_ITEM), 'queueResumable'],
  edit_queued_message: QUEUE_ITEM,
  reorder_queued_message: [...under('item.', QUEUE_ITEM), ...under('items[].', QUEUE_ITEM)],
  remove_queued_message: under('removed.', QUEUE_ITEM),
  publish_site: ['running', 'status'],
  get_publish_status: ['running', 'status'],
  list_deployments: ['[].running', '[].status'],
  list_backups: ['items[]._id', 'items[].BackupId', 'items[].type'],
  restore_backup: ['preRestoreBackup._id', 'preRestoreBackup.BackupId', 'preRestoreBackup.type'],
  list_code_backups: ['items[].codeBackupId'],
  restore_code_backup: ['codeBackupId'],
  list_storage_backups: ['items[].backupId'],
  create_storage_backup: ['backupId', 'backup.backupId'],
  restore_storage_backup: [
    'started',
    'plan',
    'confirm',
    'restore',
    'restore._id',
    'restore.status',
    ...under('plan.', [
      'filesAdded',
      'filesReplaced',
      'filesUnchanged',
      'filesRemoved',
      'bytesWritten',
      'bytesRemoved',
      'safetyBackup',
      'filesSkipped',
    ]),
  ],
  get_storage_restore_status: ['_id', 'status'],
  get_site_email_settings: [
    'emailDomains',
    'emailDomains.items',
    ...under('emailDomains.items[].', ['domainId', 'dkimStatus', 'canRestart']),
  ],
  restart_site_email_domain_verification: ['domainId', 'dkimStatus', 'canRestart'],
  'GET /v1/token': ['rateLimit'],
};

/** Left exactly as they are, not walked at all: JSON Schemas, the question of ask_user, the OpenAPI document. */
export const UNTOUCHED_PATHS: Record<string, readonly string[]> = {
  'GET /v1/tools': ['[].inputSchema'],
  // A run's events are shaped kind by kind (events.ts) before the walk.
  get_job: ['events'],
};

/** Lists whose order the reference states (oldest first), left in it. */
export const ORDERED_LISTS = new Set(['list_queued_messages:items']);

export function isStated(method: string, path: string): boolean {
  if (!path.includes('.') && !path.includes('[]') && PAGING.includes(path)) return true;
  return STATED_PATHS[method]?.includes(path) ?? false;
}

export function isUntouched(method: string, path: string): boolean {
  return UNTOUCHED_PATHS[method]?.includes(path) ?? false;
}
