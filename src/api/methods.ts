// THE method registry: the single source of truth for every method of the service, written
// with zod. It is read at build time only:
// scripts/gen-method-index.mjs compiles it to src/api/method-index.json, and everything that
// runs (the client's validation, the emulator's validation, GET /v1/openapi.json, GET /v1/tools,
// the help and completion of `sitebuilder api`) reads that compiled index through
// src/api/method-index.ts, so no zod ships. Adding a method of the service is one entry below,
// then `npm run build`.
import * as z from 'zod/mini';
import { LIMITS } from './limits.js';
import type { ListingPattern, Permission, Scope } from './registry-terms.js';

export type { ListingPattern, Permission, Scope } from './registry-terms.js';

export interface MethodSpec {
  name: string;
  summary: string;
  scope: Scope;
  /** Writes carry an Idempotency-Key and are retried after a 500 only with it. */
  write: boolean;
  destructive: boolean;
  listing?: ListingPattern;
  /** The service documents this method's arguments; false: named in passing, open schema or our plausible choice. */
  argsShown: boolean;
  permission?: Permission;
  /** Counted against the 1,200 analytics lookups a site an hour. */
  analytics?: boolean;
  /** Answers with file contents: the client reads answers up to 160 MiB instead of 64 MiB. */
  largeAnswer?: boolean;
  /**
   * The arguments. Each is marked with what the documentation states of it: `shown(…)` (its
   * name, type and bounds), `required(…)` (that, and that it is required), or nothing (our
   * guess). The client checks only the marked ones; the emulator checks everything.
   */
  args: z.ZodMiniType;
}

const PROMPT_MAX = LIMITS.promptMax;
const SELECTED_PATHS_MAX = LIMITS.selectedPathsMax;

/** The documentation shows this argument with its type and bounds (not whether it is required). */
const shown = <T extends z.ZodMiniType>(schema: T): T => schema.check(z.meta({ 'x-stated': 'shown' })) as T;
/** The documentation shows this argument as required, with its type and bounds. */
const required = <T extends z.ZodMiniType>(schema: T): T => schema.check(z.meta({ 'x-stated': 'required' })) as T;

const id = () => z.string().check(z.minLength(1));
const optId = () => z.optional(id());
/** "Site `_id` (string), used as `projectId` in every site method." */
const projectId = () => shown(id());
/** "offset (integer, skip)" */
const offset = () => z.optional(shown(z.int().check(z.minimum(0))));
/** "some take limit": which, and its bounds, are our guess. */
const limit = () => z.optional(z.int().check(z.minimum(1), z.maximum(1000)));
/** "page starting at 1" */
const page = () => z.optional(shown(z.int().check(z.minimum(1))));
/** A paging cursor or token is opaque: sent back exactly as it came, text or a number. */
const cursorArg = () => z.optional(shown(z.union([z.string().check(z.minLength(1)), z.number()])));
const prompt = () => z.string().check(z.minLength(1), z.maxLength(PROMPT_MAX));
/** A calendar day, YYYY-MM-DD. */
const day = () => z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)));
const analyticsArgs = () => ({ projectId: projectId(), from: day(), to: day() });

type Entry = Omit<MethodSpec, 'name' | 'argsShown' | 'write' | 'destructive'> & {
  write?: boolean;
  destructive?: boolean;
  argsShown?: boolean;
};

/** An entry whose `args` keeps its schema's type, which method-args.ts reads the arguments' types from. */
type Typed<S extends Record<string, z.ZodMiniType>> = Entry & { args: ReturnType<typeof z.strictObject<S>> };

const read = <S extends Record<string, z.ZodMiniType>>(
  scope: Scope,
  summary: string,
  args: S,
  extra: Partial<Omit<Entry, 'args'>> = {},
): Typed<S> => ({
  scope,
  summary,
  args: z.strictObject(args),
  write: false,
  ...extra,
});
const write = <S extends Record<string, z.ZodMiniType>>(
  scope: Scope,
  summary: string,
  args: S,
  extra: Partial<Omit<Entry, 'args'>> = {},
): Typed<S> => ({
  scope,
  summary,
  args: z.strictObject(args),
  write: true,
  ...extra,
});

const entries = {
  // Site building
  create_site: write('sites:create', 'Create a site and start its first build.', {
    workspaceId: shown(id()),
    prompt: shown(prompt()),
    importSource: z.optional(shown(z.strictObject({ SourceUrl: z.string().check(z.minLength(1), z.maxLength(2048)) }))),
  }),
  send_message: write('chat:write', 'Hand an instruction to the site agent.', {
    projectId: projectId(),
    prompt: shown(prompt()),
    mode: z.optional(shown(z.enum(['build', 'plan']))),
  }),
  get_job: read('chat:read', 'Read a run: its state and the events after the cursor.', {
    projectId: projectId(),
    jobId: shown(id()),
    cursor: z.optional(shown(z.int().check(z.minimum(0)))),
  }),
  cancel_job: write(
    'chat:write',
    'Stop the running generation.',
    { projectId: projectId(), jobId: optId(), clearSession: z.optional(shown(z.boolean())) },
    { argsShown: false },
  ),
  list_messages: read(
    'chat:read',
    'Chat history of a site, newest page first.',
    { projectId: projectId(), cursor: cursorArg(), limit: limit() },
    { listing: 'backwards', argsShown: false },
  ),
  list_queued_messages: read(
    'chat:read',
    'Waiting messages, oldest first.',
    { projectId: projectId() },
    { argsShown: false },
  ),
  edit_queued_message: write(
    'chat:write',
    'Rewrite a queued message before it runs.',
    { projectId: projectId(), queueItemId: id(), prompt: prompt(), expectedVersion: z.int().check(z.minimum(0)) },
    { argsShown: false },
  ),
  reorder_queued_message: write(
    'chat:write',
    'Move a queued message earlier or later.',
    { projectId: projectId(), queueItemId: id(), position: z.int().check(z.minimum(1)) },
    { argsShown: false },
  ),
  remove_queued_message: write(
    'sites:delete',
    'Take a message out of the queue.',
    { projectId: projectId(), queueItemId: id() },
    { argsShown: false },
  ),
  resume_queue: write(
    'chat:write',
    'Restart a queue stopped after a failed or stopped run.',
    { projectId: projectId() },
    { argsShown: false },
  ),
  upload_storage_file: write(
    'data:write',
    'Upload a public file; answers its permanent address.',
    {
      projectId: projectId(),
      fileName: z.string().check(z.minLength(1), z.maxLength(255)),
      contentBase64: z.string(),
      contentType: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
    },
    { argsShown: false },
  ),
  publish_site: write('publish:write', 'Start publishing the site.', { projectId: projectId() }),
  get_publish_status: read('sites:read', 'Whether a publish is running, and its status.', { projectId: projectId() }),
  get_publish_logs: read(
    'sites:read',
    'Log lines of the latest publish (or of deploymentId).',
    { projectId: projectId(), deploymentId: optId(), offset: offset(), limit: limit() },
    { listing: 'offset', argsShown: false },
  ),
  list_deployments: read(
    'sites:read',
    'Published versions of the site.',
    { projectId: projectId(), offset: offset(), limit: limit() },
    { listing: 'offset', argsShown: false },
  ),

  // Discovery
  list_workspaces: read('workspaces:read', 'Workspaces the token reaches.', {}),
  list_sites: read(
    'sites:read',
    'Sites of a workspace.',
    { workspaceId: shown(id()), offset: offset(), limit: limit() },
    { listing: 'offset' },
  ),
  list_templates: read(
    'sites:read',
    'Site templates.',
    { offset: offset(), limit: limit(), category: z.optional(z.string().check(z.minLength(1), z.maxLength(64))) },
    { listing: 'offset', argsShown: false },
  ),
  list_workspace_members: read(
    'workspaces:read',
    'Members of a workspace with their roles.',
    { workspaceId: id(), offset: offset(), limit: limit() },
    { listing: 'offset', argsShown: false },
  ),
  list_workspace_credit_activity: read(
    'workspaces:read',
    'Credit spending and top-ups of a workspace.',
    { workspaceId: id(), offset: offset(), limit: limit() },
    { listing: 'offsetHasMore', argsShown: false },
  ),

  // Backups and restores
  list_backups: read(
    'sites:read',
    'Site backups (pages, components, settings).',
    { projectId: projectId() },
    { argsShown: false },
  ),
  restore_backup: write(
    'sites:write',
    'Replace every page, component and setting with a backup’s; takes a Pre-restore Backup first.',
    { projectId: required(id()), backupId: required(id()) },
    { destructive: true },
  ),
  list_code_backups: read(
    'sites:read',
    'Code backups of a site.',
    { projectId: projectId(), page: page() },
    { listing: 'page', argsShown: false },
  ),
  restore_code_backup: write(
    'sites:delete',
    'Revert the site’s code to a backup; deletes the chat history and discards queued messages.',
    {
      projectId: required(id()),
      codeBackupId: required(id()),
      cancelActiveJob: z.optional(shown(z.boolean())),
    },
    { destructive: true },
  ),
  list_storage_backups: read(
    'sites:read',
    'Storage backups of a site.',
    { projectId: projectId(), page: page() },
    { listing: 'page', argsShown: false },
  ),
  browse_storage_backup: read(
    'sites:read',
    'List the files and folders of a storage backup (one folder, or every file below it with recursive).',
    {
      projectId: projectId(),
      backupId: id(),
      path: z.optional(z.string().check(z.maxLength(1024))),
      recursive: z.optional(z.boolean()),
    },
    { argsShown: false },
  ),
  read_storage_backup_file: read(
    'sites:read',
    'Read one file of a storage backup (its public copy unless visibility says otherwise).',
    {
      projectId: projectId(),
      backupId: id(),
      path: z.string().check(z.minLength(1), z.maxLength(1024)),
      visibility: z.optional(z.enum(['public', 'private'])),
    },
    { argsShown: false, largeAnswer: true },
  ),
  create_storage_backup: write(
    'data:write',
    'Take a backup of the site’s storage; it is archived in the background.',
    { projectId: projectId(), label: z.optional(z.string().check(z.minLength(1), z.maxLength(200))) },
    { argsShown: false },
  ),
  clear_storage_backups: write(
    'data:write',
    'Delete storage backups of the site (all, or the ones named).',
    { projectId: projectId(), backupIds: z.optional(z.array(id())) },
    { destructive: true, argsShown: false, permission: 'deleteProjects' },
  ),
  restore_storage_backup: write(
    'data:write',
    'Two-call storage restore: without confirm, the plan; with the exact confirm, the restore.',
    {
      projectId: required(id()),
      backupId: required(id()),
      mode: required(z.enum(['full', 'selected'])),
      // The items' bounds are our guess: only the list and its 200 are stated.
      paths: z.optional(
        shown(z.array(z.string().check(z.minLength(1), z.maxLength(1024))).check(z.maxLength(SELECTED_PATHS_MAX))),
      ),
      confirm: z.optional(shown(z.string().check(z.minLength(1)))),
    },
    { destructive: true, permission: 'deleteProjects' },
  ),
  get_storage_restore_status: read(
    'sites:read',
    'Status of a storage restore, until it reads completed.',
    { projectId: projectId(), restoreId: id() },
    { argsShown: false },
  ),
  list_database_backups: read(
    'sites:read',
    'Database backups of a site.',
    { projectId: projectId(), page: page() },
    { listing: 'page', argsShown: false },
  ),
  list_storage_files: read(
    'sites:read',
    'Files in the site’s storage.',
    { projectId: projectId(), token: cursorArg(), prefix: z.optional(z.string()) },
    { listing: 'token', argsShown: false },
  ),

  // Email domains
  get_site_email_settings: read(
    'sites:read',
    'Email settings of a site, with its email domains.',
    { projectId: projectId() },
    { argsShown: false },
  ),
  restart_site_email_domain_verification: write(
    'config:write',
    'Set an email domain up again with the mail provider; the three DKIM records change.',
    { projectId: required(id()), domainId: required(id()) },
    { destructive: true, permission: 'manageDomains' },
  ),
  list_site_email_sends: read(
    'sites:read',
    'Emails sent by the site.',
    { projectId: projectId(), cursor: cursorArg(), limit: limit() },
    { listing: 'nextCursor', argsShown: false },
  ),
  list_site_email_engagement: read(
    'sites:read',
    'Opens and clicks of the site’s emails.',
    { projectId: projectId(), sendId: optId(), cursor: cursorArg(), limit: limit() },
    { listing: 'nextCursor', argsShown: false },
  ),
  list_site_email_suppressions: read(
    'sites:read',
    'Addresses the site no longer sends to.',
    { projectId: projectId(), cursor: cursorArg(), limit: limit() },
    { listing: 'nextCursor', argsShown: false },
  ),

  // Named in passing: arguments and payloads not shown; the emulator's choices (docs/emulator.md).
  run_site_cron: write(
    'sites:write',
    'Run a scheduled job of the site now.',
    { projectId: projectId(), cronId: id() },
    { argsShown: false },
  ),
  list_site_cron_runs: read(
    'sites:read',
    'Runs of the site’s scheduled jobs, newest first.',
    { projectId: projectId(), cronId: optId(), cursor: cursorArg(), limit: limit() },
    { listing: 'nextCursor', argsShown: false },
  ),
  trigger_deploy_hook: write(
    'publish:write',
    'Call a deploy hook: publishes the site (10 calls a minute per hook).',
    { projectId: projectId(), hookId: id() },
    { argsShown: false },
  ),
  list_deploy_hook_calls: read(
    'sites:read',
    'Calls of the site’s deploy hooks, newest first.',
    { projectId: projectId(), hookId: optId(), cursor: cursorArg(), limit: limit() },
    { listing: 'nextCursor', argsShown: false },
  ),
  list_webhook_deliveries: read(
    'sites:read',
    'Outbound webhook deliveries, newest first.',
    { projectId: projectId(), webhookId: optId(), cursor: cursorArg(), limit: limit() },
    { listing: 'nextCursor', argsShown: false },
  ),
  export_collection: read(
    'sites:read',
    'Export every row of a collection as JSON or CSV.',
    { projectId: projectId(), collectionId: id(), format: z.optional(z.enum(['json', 'csv'])) },
    { argsShown: false, largeAnswer: true },
  ),
  list_rows: read(
    'sites:read',
    'Rows of a collection.',
    { projectId: projectId(), collectionId: id(), offset: offset(), limit: limit() },
    { listing: 'offset', argsShown: false },
  ),
  set_secret: write(
    'config:write',
    'Set an environment secret of the site (the value is never sent back).',
    {
      projectId: projectId(),
      name: z.string().check(z.minLength(1), z.maxLength(128)),
      value: z.string().check(z.maxLength(65_536)),
    },
    { argsShown: false },
  ),
  get_site_analytics: read('sites:read', 'Visits and page views of the site, by day.', analyticsArgs(), {
    analytics: true,
    argsShown: false,
  }),
  get_site_analytics_pages: read(
    'sites:read',
    'Top pages of the site.',
    { ...analyticsArgs(), limit: limit() },
    { analytics: true, argsShown: false },
  ),
  get_site_analytics_referrers: read(
    'sites:read',
    'Top referrers of the site.',
    { ...analyticsArgs(), limit: limit() },
    { analytics: true, argsShown: false },
  ),
} satisfies Record<string, Entry>;

export type MethodName = keyof typeof entries;

/** Each method's argument schema with its zod type (types only: method-args.ts). */
export type MethodSchemas = { [M in MethodName]: (typeof entries)[M]['args'] };

export const METHODS: Readonly<Record<MethodName, MethodSpec>> = Object.fromEntries(
  Object.entries(entries).map(([name, e]) => [
    name,
    { argsShown: true, destructive: false, write: false, ...e, name } as MethodSpec,
  ]),
) as Record<MethodName, MethodSpec>;

export const METHOD_NAMES = Object.keys(METHODS) as MethodName[];
