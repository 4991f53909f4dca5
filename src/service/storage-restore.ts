// restore_storage_backup and get_storage_restore_status. Stated: the plan's counts
// (`filesAdded`, `filesReplaced`, `filesUnchanged`, `filesRemoved`, `bytesWritten`,
// `bytesRemoved`), `safetyBackup`, `filesSkipped`, the `confirm` value, `started`, the restore
// row's `_id` and its status (`completed`), `activeRestore` on the refusal of a second restore.
// Not shown: the names of the files the plan counts, and the row's other fields. A stated count
// the answer does not give is said, never taken as 0: an empty plan is never shown as one.
import { field, isRecord, locate, type ReadRecord, readRecord, recordOf, resource } from './read.js';
import { parseTime } from './time.js';
import { asId, asText } from './values.js';

export interface PlanFile {
  path: string;
  visibility?: string;
  size?: number;
}

/** The counts the reference states for a plan. */
export const PLAN_COUNTS = [
  'filesAdded',
  'filesReplaced',
  'filesUnchanged',
  'filesRemoved',
  'bytesWritten',
  'bytesRemoved',
] as const;
export type PlanCount = (typeof PLAN_COUNTS)[number];

export interface RestorePlan {
  filesAdded: number;
  filesReplaced: number;
  filesUnchanged: number;
  filesRemoved: number;
  bytesWritten: number;
  bytesRemoved: number;
  safetyBackup: boolean;
  /** How many files storage no longer accepts the path of; they stay as they are. */
  filesSkipped: number;
  /** Their paths, as far as the service names them. */
  skipped: string[];
  /**
   * The files removed and replaced, as far as the service names them: it shows counts only, so
   * these may be empty or shorter than the counts (unnamedNote says so).
   */
  removedFiles: PlanFile[];
  replacedFiles: PlanFile[];
  /** Stated counts the answer did not give as a number: shown as not given, never as 0. */
  missing: PlanCount[];
}

/** Where a plan may name its files besides the counts (not shown by the service). */
export const PLAN_FILES = resource('storage restore plan', 'restore_storage_backup data.plan', {
  removed: field(
    'the files it removes',
    ['removedFiles', 'filesToRemove', 'removed', 'deletedFiles', 'filesToDelete'],
    (v) => (Array.isArray(v) ? v : undefined),
  ),
  replaced: field(
    'the files it replaces',
    ['replacedFiles', 'filesToReplace', 'replaced', 'overwrittenFiles', 'filesToOverwrite'],
    (v) => (Array.isArray(v) ? v : undefined),
  ),
  filePath: field('a file’s path', ['path', 'filePath', 'name', 'key'], asText),
});

const countOf = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : Array.isArray(v) ? v.length : undefined;

/** A list of files: paths, or records with a path; entries without one are left out, never made up. */
function files(v: unknown): PlanFile[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((f): PlanFile[] => {
    if (typeof f === 'string') return f ? [{ path: f }] : [];
    const path = locate(f, PLAN_FILES.fields.filePath)?.value;
    if (!path) return [];
    const r = recordOf(f);
    return [
      {
        path,
        visibility: typeof r.visibility === 'string' ? r.visibility : undefined,
        size: typeof r.size === 'number' ? r.size : undefined,
      },
    ];
  });
}

export function readPlan(value: unknown): RestorePlan {
  const p = recordOf(value);
  const missing = PLAN_COUNTS.filter((k) => countOf(p[k]) === undefined);
  const n = (k: PlanCount) => countOf(p[k]) ?? 0;
  return {
    filesAdded: n('filesAdded'),
    filesReplaced: n('filesReplaced'),
    filesUnchanged: n('filesUnchanged'),
    filesRemoved: n('filesRemoved'),
    bytesWritten: n('bytesWritten'),
    bytesRemoved: n('bytesRemoved'),
    safetyBackup: p.safetyBackup === true,
    filesSkipped: countOf(p.filesSkipped) ?? 0,
    skipped: files(p.filesSkipped).map((f) => f.path),
    removedFiles: files(locate(p, PLAN_FILES.fields.removed)?.value),
    replacedFiles: files(locate(p, PLAN_FILES.fields.replaced)?.value),
    missing,
  };
}

/** The plan call's answer: the plan and the exact `confirm` to send back (both stated); undefined without them. */
export function readPlanAnswer(data: unknown): { plan: RestorePlan; rawPlan: unknown; confirm: string } | undefined {
  const d = recordOf(data);
  if (typeof d.confirm !== 'string' || !d.confirm || d.plan === undefined) return undefined;
  return { plan: readPlan(d.plan), rawPlan: d.plan, confirm: d.confirm };
}

/** Whether a start was answered as not started (`started` false, stated). */
export const notStarted = (data: unknown): boolean => recordOf(data).started === false;

export const RESTORE_ROW = resource(
  'storage restore row',
  'restore_storage_backup data.restore; get_storage_restore_status data',
  {
    id: field('its id', ['_id', 'restoreId'], asId, ['_id']),
    status: field('its status', ['status', 'state'], asText, ['status']),
    backupId: field('its backup', ['backupId'], asId),
    mode: field('its mode', ['mode'], asText),
    paths: field('its paths', ['paths'], (v) =>
      Array.isArray(v) && v.every((p) => typeof p === 'string') ? (v as string[]) : undefined,
    ),
    started: field('when it started', ['startedAt', 'createdAt'], parseTime),
    completed: field('when it completed', ['completedAt', 'finishedAt'], parseTime),
    safetyBackupId: field('its Before restore backup', ['safetyBackupId', 'beforeRestoreBackupId'], asId),
    plan: field('its plan', ['plan'], (v) => (isRecord(v) ? v : undefined)),
  },
);

export type RestoreRow = ReadRecord<typeof RESTORE_ROW.fields>;
export const readRestoreRow = (raw: unknown): RestoreRow => readRecord(RESTORE_ROW, raw);

/** The restore row of an answer: under `restore`, or the data itself. */
export function restoreRowOf(data: unknown): Record<string, unknown> {
  const d = recordOf(data);
  return isRecord(d.restore) ? d.restore : d;
}

/** The refusal of a second restore: the running one (`activeRestore`, stated; its fields as a row's). */
export function readActiveRestore(data: unknown): RestoreRow | undefined {
  const active = recordOf(data).activeRestore;
  return isRecord(active) && Object.keys(active).length ? readRestoreRow(active) : undefined;
}
