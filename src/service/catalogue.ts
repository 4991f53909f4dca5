// The catalogue of the service model: every resource the CLI reads, where its answers come from,
// and every field with the paths it is looked for under (`stated` where the reference states
// them). What `sitebuilder doctor` asks, for each not-shown field: found, and where, or not
// (probeAnswer); what the docs list (docs/real-service.md "The service model"); and what the
// test of "no alternative field name outside the model" takes its names from.
import { EVENT_DATA } from './events.js';
import { JOB } from './job.js';
import { MESSAGE } from './messages.js';
import { findList, PAGE } from './page.js';
import { type Field, isRecord, locate, type Resource } from './read.js';
import {
  BROWSE_ENTRY,
  CLEAR_ANSWER,
  CODE_BACKUP,
  CODE_RESTORE_ANSWER,
  FILE_CONTENT,
  PRE_RESTORE,
  SITE_BACKUP,
  STORAGE_BACKUP,
} from './backups.js';
import { CANCEL_ANSWER, QUEUE, QUEUE_ITEM, REMOVE_ANSWER, RESUME_ANSWER, SEND_ANSWER } from './chat.js';
import { TOOL } from './discovery.js';
import { DNS_RECORD, EMAIL_DOMAIN, emailDomainsOf } from './email.js';
import { LOG, PUBLISH } from './publish.js';
import { CREATE_ANSWER, SITE, WORKSPACE } from './sites.js';
import { PLAN_FILES, RESTORE_ROW, restoreRowOf } from './storage-restore.js';
import { TOKEN } from './token.js';
import { UPLOAD_ANSWER } from './upload.js';

type AnyResource = Resource<Record<string, Field<unknown>>>;

/** Where in an answer's `data` the records of a resource are. */
export type Place =
  /** The data itself. */
  | 'data'
  /** Each record of the list in the data (as a listing finds it). */
  | 'list'
  /** The `data` of each event of get_job, by kind (EVENT_FIELDS). */
  | 'events'
  /** The restore row: under `restore`, or the data itself. */
  | 'restore row'
  /** The plan under `plan`. */
  | 'plan'
  /** Each email domain under emailDomains.items. */
  | 'email domains'
  /** The DNS records of each email domain. */
  | 'dns records';

export interface CatalogueEntry {
  resource: AnyResource;
  /** The methods (or GET addresses) whose answers hold it, and where. */
  from: Array<{ method: string; at: Place }>;
}

const at = (method: string, place: Place = 'data') => ({ method, at: place });
const list = (method: string) => at(method, 'list');

export const CATALOGUE: CatalogueEntry[] = [
  { resource: JOB, from: [at('get_job')] },
  { resource: EVENT_DATA, from: [at('get_job', 'events')] },
  { resource: MESSAGE, from: [list('list_messages')] },
  { resource: SEND_ANSWER, from: [at('send_message')] },
  { resource: CANCEL_ANSWER, from: [at('cancel_job')] },
  { resource: RESUME_ANSWER, from: [at('resume_queue')] },
  { resource: REMOVE_ANSWER, from: [at('remove_queued_message')] },
  { resource: QUEUE, from: [at('list_queued_messages')] },
  {
    resource: QUEUE_ITEM,
    from: [list('list_queued_messages'), list('reorder_queued_message'), at('edit_queued_message')],
  },
  { resource: WORKSPACE, from: [list('list_workspaces')] },
  { resource: SITE, from: [list('list_sites')] },
  { resource: CREATE_ANSWER, from: [at('create_site')] },
  { resource: PUBLISH, from: [at('publish_site'), at('get_publish_status')] },
  { resource: LOG, from: [list('get_publish_logs')] },
  { resource: UPLOAD_ANSWER, from: [at('upload_storage_file')] },
  { resource: SITE_BACKUP, from: [list('list_backups')] },
  { resource: PRE_RESTORE, from: [at('restore_backup')] },
  { resource: CODE_BACKUP, from: [list('list_code_backups')] },
  { resource: CODE_RESTORE_ANSWER, from: [at('restore_code_backup')] },
  { resource: STORAGE_BACKUP, from: [list('list_storage_backups'), at('create_storage_backup')] },
  { resource: BROWSE_ENTRY, from: [list('browse_storage_backup')] },
  { resource: FILE_CONTENT, from: [at('read_storage_backup_file')] },
  { resource: CLEAR_ANSWER, from: [at('clear_storage_backups')] },
  { resource: PLAN_FILES, from: [at('restore_storage_backup', 'plan')] },
  {
    resource: RESTORE_ROW,
    from: [at('restore_storage_backup', 'restore row'), at('get_storage_restore_status', 'restore row')],
  },
  { resource: EMAIL_DOMAIN, from: [at('get_site_email_settings', 'email domains')] },
  { resource: DNS_RECORD, from: [at('get_site_email_settings', 'dns records')] },
  { resource: TOKEN, from: [at('GET /v1/token')] },
  { resource: TOOL, from: [list('GET /v1/tools')] },
  { resource: PAGE, from: [at('every listing')] },
];

/** Which fields of EVENT_DATA each event kind is read for. */
export const EVENT_FIELDS: Record<string, Array<keyof typeof EVENT_DATA.fields>> = {
  text: ['text'],
  file_changed: ['filePath', 'fileChange'],
  file_deleted: ['filePath'],
  todos: ['todoList'],
  tool_call: ['toolName', 'toolInput', 'toolTarget', 'question', 'options'],
  tool_result: ['resultSummary'],
  credits_used: ['credits'],
  error: ['errorMessage', 'errorCode'],
};

/** What doctor reports of one field of one record: where it was looked for, and where found. */
export interface Probe {
  field: string;
  what: string;
  stated: boolean;
  looked: readonly string[];
  found: string | null;
}

export function probe<F extends Record<string, Field<unknown>>>(res: Resource<F>, raw: unknown): Probe[] {
  return Object.entries(res.fields).map(([name, f]) => ({
    field: name,
    what: f.what,
    stated: f.paths.length > 0 && f.paths.every((p) => f.stated.includes(p)),
    looked: f.paths,
    found: locate(raw, f)?.path ?? null,
  }));
}

/** A field of the catalogue, flat: for the docs and doctor's table of what is read where. */
export interface CatalogueField {
  resource: string;
  field: string;
  what: string;
  looked: readonly string[];
  /** Every path it is looked for under is stated by the reference. */
  stated: boolean;
  /** The paths among `looked` that the reference states. */
  statedPaths: readonly string[];
}

export function catalogueFields(): CatalogueField[] {
  return CATALOGUE.flatMap(({ resource }) =>
    Object.entries(resource.fields).map(([name, f]) => ({
      resource: resource.name,
      field: name,
      what: f.what,
      looked: f.paths,
      stated: f.paths.length > 0 && f.paths.every((p) => f.stated.includes(p)),
      statedPaths: f.stated,
    })),
  );
}

/** The records of a resource in an answer's data, at its place. */
export function recordsAt(data: unknown, place: Place): unknown[] {
  switch (place) {
    case 'data':
      return [data];
    case 'list': {
      const found = findList(data);
      return Array.isArray(found) ? found : [];
    }
    case 'restore row':
      return [restoreRowOf(data)];
    case 'plan':
      return isRecord(data) && isRecord(data.plan) ? [data.plan] : [];
    case 'email domains':
      return emailDomainsOf(data);
    case 'dns records':
      return emailDomainsOf(data).flatMap((d) => {
        const dkim =
          [d.dkimRecords, d.dkim, isRecord(d.records) ? d.records.dkim : undefined].find(Array.isArray) ?? [];
        return [...dkim, d.ownershipRecord ?? d.ownership ?? d.verificationRecord].filter(isRecord);
      });
    case 'events': {
      const events = isRecord(data) && Array.isArray(data.events) ? data.events : [];
      return events;
    }
  }
}

/** A field of a resource as doctor reports it: over the records of one answer, found in any, and where. */
export interface FieldReport extends Probe {
  resource: string;
  /** How many records of the answer it was looked for in. */
  records: number;
}

/**
 * For the answer of one method: every field of every resource that method's answer holds, and
 * where it was found (the first path that held it in any record), or null. Events are probed
 * by kind: a field is looked for only in the events of the kinds it is read for.
 */
export function probeAnswer(method: string, data: unknown): FieldReport[] {
  const out: FieldReport[] = [];
  for (const { resource, from } of CATALOGUE) {
    for (const { at: place } of from.filter((f) => f.method === method)) {
      const records = recordsAt(data, place);
      for (const [name, f] of Object.entries(resource.fields)) {
        const among =
          place === 'events'
            ? records
                .filter(isRecord)
                .filter((e) => typeof e.event === 'string' && EVENT_FIELDS[e.event]?.includes(name as never))
                .map((e) => e.data)
            : records;
        const probes = among.map((r) => probe({ ...resource, fields: { [name]: f } }, r)[0]);
        const found = probes.find((p) => p.found !== null)?.found ?? null;
        const base = probe({ ...resource, fields: { [name]: f } }, undefined)[0];
        out.push({ ...base, found, resource: resource.name, records: among.length });
      }
    }
  }
  return out;
}

const code = (s: string) => `\`${s}\``;
const pathWords = (f: CatalogueField) =>
  f.looked
    .map((p) => (p === '.' ? 'the value itself' : f.statedPaths.includes(p) ? `**${code(p)}**` : code(p)))
    .join(', ');

/**
 * The catalogue as the Markdown table of docs/real-service.md ("The model's readers"): one row
 * per field, its paths in the order tried, stated ones in bold (`npm run docs:model` writes it).
 */
export function catalogueTable(): string {
  const rows = CATALOGUE.flatMap(({ resource, from }) => {
    const where = [...new Set(from.map((f) => `${code(f.method)}${f.at === 'data' ? '' : ` (${f.at})`}`))].join(', ');
    return Object.entries(resource.fields).map(([name, f], i) => {
      const field: CatalogueField = {
        resource: resource.name,
        field: name,
        what: f.what,
        looked: f.paths,
        stated: false,
        statedPaths: f.stated,
      };
      return `| ${i === 0 ? `${resource.name}<br>${where}` : ''} | ${f.what} | ${pathWords(field)} |`;
    });
  });
  return ['| resource, from | field | looked for, in order (**stated**) |', '| --- | --- | --- |', ...rows].join('\n');
}
