// The catalogue of the random shapes: for every choice the service's reference leaves "not
// shown", the plausible answers a seed draws from (docs/emulator.md "Random shapes" lists the
// same). Names with a dot are nested (`meta.when` puts the value under `meta`). "Known" names
// are the obvious alternatives a tolerant reader might try; "unknown" ones are names no alias
// list could hold. Everything here is data, so the docs and test/emulator/random-shapes.test.ts
// read the choices the emulator makes.

/** Other names of a record's field, by the name the emulator's own shapes give it. */
export const FIELD_NAMES: Record<string, { known: string[]; unknown: string[] }> = {
  createdAt: {
    known: ['created_at', 'timestamp', 'time', 'date', 'created'],
    unknown: ['ts_created', 'meta.when', 'postedOn', 'timestamps.created', 'stamp'],
  },
  updatedAt: {
    known: ['updated_at', 'modifiedAt', 'lastModified'],
    unknown: ['ts_updated', 'meta.changed', 'editedOn'],
  },
  startedAt: { known: ['started_at', 'createdAt', 'startTime'], unknown: ['ts_begin', 'timing.start', 'kickedOffOn'] },
  finishedAt: { known: ['finished_at', 'completedAt', 'endTime'], unknown: ['ts_end', 'timing.end', 'wrappedUpOn'] },
  publishedAt: { known: ['published_at', 'lastPublishedAt'], unknown: ['liveSince', 'release.when'] },
  readyAt: { known: ['ready_at', 'completedAt'], unknown: ['sealedOn', 'timing.ready'] },
  at: { known: ['time', 'timestamp', 'createdAt'], unknown: ['ts', 'occurred.when', 'loggedOn'] },
  jobId: {
    known: ['job_id', 'runId', 'job.jobId', 'job._id'],
    unknown: ['runRef.ident', 'generation', 'turn.ref', 'execution'],
  },
  text: { known: ['content', 'message', 'body'], unknown: ['parts', 'utterance', 'payload.markdown', 'copy'] },
  prompt: { known: ['text', 'message', 'content'], unknown: ['instruction', 'ask.body', 'request'] },
  role: { known: ['author', 'from', 'sender'], unknown: ['speaker', 'origin', 'participant.kind'] },
  author: { known: ['userId', 'createdBy', 'user'], unknown: ['actor.ref', 'postedBy', 'owner'] },
  url: {
    known: ['publicUrl', 'liveUrl', 'address', 'href'],
    unknown: ['links.public', 'location', 'asset.href', 'file.links.download', 'cdn'],
  },
  publishedUrl: { known: ['liveUrl', 'url', 'publicUrl'], unknown: ['links.live', 'hostname_url', 'endpoint'] },
  name: { known: ['title', 'label', 'displayName'], unknown: ['caption', 'info.title', 'heading'] },
  label: { known: ['name', 'title', 'message'], unknown: ['caption', 'note', 'info.label'] },
  items: {
    known: ['data', 'results', 'records', 'entries'],
    unknown: ['page.items', 'rows', 'history', 'list', 'collection.members'],
  },
  state: { known: ['status'], unknown: ['phase', 'lifecycle.stage'] },
  status: { known: ['state'], unknown: ['phase', 'condition', 'lifecycle.stage'] },
  path: { known: ['filePath', 'key', 'name'], unknown: ['objectKey', 'file.location', 'ref'] },
  deploymentId: { known: ['deployId', 'publishId', '_id', 'id'], unknown: ['release.ref', 'buildNo'] },
  error: { known: ['failure', 'lastError'], unknown: ['problem', 'fault.detail'] },
  message: { known: ['detail', 'error', 'reason', 'text'], unknown: ['explanation', 'info.msg', 'humanReadable'] },
  code: { known: ['type', 'errorCode', 'error_code'], unknown: ['kind', 'slug', 'info.code'] },
  waiting: { known: ['waitingCount', 'remaining', 'queueLength'], unknown: ['backlog', 'pending.count'] },
  files: { known: ['fileCount', 'filesCount'], unknown: ['nFiles', 'stats.files'] },
  size: { known: ['bytes', 'sizeBytes'], unknown: ['length', 'stats.bytes'] },
  sizeBytes: { known: ['size', 'bytes'], unknown: ['length', 'stats.bytes'] },
};

/** Wrappers a field may be moved into when no name above is drawn (`attributes.name`). */
export const WRAPPERS = ['meta', 'attributes', 'info', 'details', 'props'] as const;

/** How a seed spells a field it keeps but renames by convention. */
export const NAME_CASES = ['snake', 'pascal', 'kebab'] as const;

/** Other spellings of values the reference does not list, per field (the stated ones never change). */
export const SPELLINGS: Record<string, Record<string, string[]>> = {
  role: { user: ['human', 'USER', 'customer', 'member'], agent: ['assistant', 'ai', 'bot', 'AGENT', 'model'] },
  status: {
    queued: ['pending', 'waiting', 'QUEUED', 'scheduled'],
    building: ['in_progress', 'BUILDING', 'compiling', 'working'],
    deploying: ['in_progress', 'rolling_out', 'uploading'],
    failed: ['error', 'failure', 'FAILED', 'errored'],
    unpublished: ['never_published', 'none', 'draft'],
    archiving: ['pending', 'creating', 'in_progress', 'ARCHIVING'],
    running: ['in_progress', 'restoring', 'RUNNING', 'processing'],
    succeeded: ['success', 'ok', 'done'],
    pending: ['todo', 'open', 'not_started'],
    in_progress: ['active', 'doing', 'working'],
    done: ['completed', 'finished', 'closed'],
  },
  action: { created: ['added', 'new', 'create', 'A'], modified: ['updated', 'changed', 'edit', 'M'] },
  type: { daily: ['scheduled', 'auto', 'nightly'], manual: ['user', 'on_demand'] },
  level: { info: ['INFO', 'notice', 'log'], error: ['ERROR', 'err', 'fatal'] },
};

/** Values never respelled: the ones the reference states (publish `ready`, restore `completed`, backup `automatic`). */
export const STATED_VALUES = new Set(['ready', 'completed', 'automatic']);
/** Fields whose values are never respelled: the job states (all five stated) and `dkimStatus` (listed). */
export const STATED_VALUE_FIELDS = new Set(['state', 'dkimStatus', 'mode']);

/** Time formats of records (only ISO-8601 in the emulator's own shapes). */
export const TIME_FORMATS = [
  'iso',
  'isoSeconds',
  'isoOffset',
  'epochMs',
  'epochS',
  'epochMsText',
  'rfc2822',
  'httpDate',
  'sql',
] as const;
export type TimeFormat = (typeof TIME_FORMATS)[number];

/** Forms of the ids made up at run time, per kind (seeded ids such as site_bakery never change). */
export const ID_FORMS = ['default', 'uuid', 'objectId', 'number', 'ulid'] as const;
export type IdForm = (typeof ID_FORMS)[number];
/** Kinds whose ids may be numbers: none of them is an argument the reference types as a string. */
export const NUMERIC_ID_KINDS = new Set([
  'job',
  'msg',
  'qmsg',
  'dep',
  'cred',
  'cronrun',
  'hookcall',
  'dlv',
  'eeng',
  'esend',
]);

/** Job states the reference does not list, before and after `running` (both ongoing). */
export const STATES_BEFORE = ['queued', 'starting', 'pending', 'initializing', 'provisioning'] as const;
export const STATES_AFTER = ['finalizing', 'completing', 'wrapping_up', 'post_processing', 'saving'] as const;

/** Where an event's text sits, and in what form (the value at that name). */
export const TEXT_KEYS = [
  'text',
  'content',
  'delta',
  'value',
  'body',
  'chunk.md',
  'message.content',
  'output',
] as const;
export const TEXT_FORMS = ['plain', 'blocks', 'wrapped', 'parts'] as const;
export type TextForm = (typeof TEXT_FORMS)[number];

/** Forms of a task list (todos), and of a file change (file_changed, file_deleted). */
export const TODO_FORMS = ['items', 'todos', 'entries', 'tasks', 'wrappedTitles', 'markdown'] as const;
export const FILE_FORMS = ['path', 'filePath', 'nested', 'split', 'list', 'uri'] as const;

/** Fields a real service adds that no client asked for (each seed adds some of them to every record). */
export const EXTRA_FIELDS = ['__v', 'object', 'etag', 'links', 'meta', 'id', 'tenant', 'version'] as const;

/** Other names of arguments the reference does not show (taken as well as ours, or instead of them). */
export const ARG_NAMES: Record<string, string[]> = {
  queueItemId: ['itemId', 'id', 'messageId', 'queuedMessageId'],
  prompt: ['text', 'content', 'message'],
  position: ['toPosition', 'index', 'newPosition'],
  fileName: ['path', 'name', 'filename', 'key'],
  contentBase64: ['content', 'data', 'base64'],
  contentType: ['mimeType', 'mime', 'type'],
  jobId: ['runId', 'job_id', 'id'],
  limit: ['pageSize', 'perPage', 'size'],
  label: ['name', 'title', 'note'],
  backupIds: ['ids', 'backups'],
  path: ['filePath', 'key'],
};
