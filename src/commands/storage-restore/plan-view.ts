// The storage restore plan, read tolerantly and shown as a table: alone, or side by side with
// the plan the user saw when the service answers 409 with a new one. Pure functions over a
// plan, so the walkthrough, `storage-restore plan` and the tests share them.
import { createRequire } from 'node:module';
import type { IO } from '../../io/io.js';
import { asRecord, pickString } from '../../io/records.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { style } from '../../io/style.js';
import { formatBytes } from '../storage-backup/format.js';

export interface PlanFile {
  path: string;
  visibility?: string;
  size?: number;
}

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
}

/** Where a plan may name its files besides the counts (not shown by the service). */
const REMOVED_LISTS = ['removedFiles', 'filesToRemove', 'removed', 'deletedFiles', 'filesToDelete'];
const REPLACED_LISTS = ['replacedFiles', 'filesToReplace', 'replaced', 'overwrittenFiles', 'filesToOverwrite'];

const count = (v: unknown): number => (typeof v === 'number' ? v : Array.isArray(v) ? v.length : Number(v) || 0);
/** A list of files: paths, or records with a path; entries without one are left out, never made up. */
const files = (v: unknown): PlanFile[] =>
  Array.isArray(v)
    ? v.flatMap((f): PlanFile[] => {
        if (typeof f === 'string') return f ? [{ path: f }] : [];
        const path = pickString(f, 'path', 'filePath', 'name', 'key');
        if (!path) return [];
        const size = asRecord(f).size;
        return [{ path, visibility: pickString(f, 'visibility'), size: typeof size === 'number' ? size : undefined }];
      })
    : [];
const firstList = (p: Record<string, unknown>, names: string[]): PlanFile[] => {
  for (const n of names) if (Array.isArray(p[n])) return files(p[n]);
  return [];
};

export function readPlan(value: unknown): RestorePlan {
  const p = asRecord(value);
  return {
    filesAdded: count(p.filesAdded),
    filesReplaced: count(p.filesReplaced),
    filesUnchanged: count(p.filesUnchanged),
    filesRemoved: count(p.filesRemoved),
    bytesWritten: count(p.bytesWritten),
    bytesRemoved: count(p.bytesRemoved),
    safetyBackup: p.safetyBackup === true,
    filesSkipped: count(p.filesSkipped),
    skipped: files(p.filesSkipped).map((f) => f.path),
    removedFiles: firstList(p, REMOVED_LISTS),
    replacedFiles: firstList(p, REPLACED_LISTS),
  };
}

/**
 * The sentence saying which files the plan counts but does not name (the service shows counts
 * only), or undefined when every counted file is named. Printed wherever the plan's file rows are.
 */
export function unnamedNote(p: RestorePlan): string | undefined {
  const parts = (
    [
      [p.filesRemoved, p.removedFiles.length, 'removed'],
      [p.filesReplaced, p.replacedFiles.length, 'replaced'],
      [p.filesSkipped, p.skipped.length, 'skipped'],
    ] as const
  )
    .filter(([total, named]) => total > named)
    .map(([total, named, what]) =>
      named === 0 ? `${total} ${what} file${total === 1 ? '' : 's'}` : `${total - named} of the ${total} ${what} files`,
    );
  return parts.length ? `Names not given by the service’s plan (it gives counts): ${parts.join(', ')}.` : undefined;
}

/** Nothing would be written or deleted: starting the restore would change nothing. */
export const planIsEmpty = (p: RestorePlan): boolean => p.filesAdded + p.filesReplaced + p.filesRemoved === 0;

export function planRows(p: RestorePlan, human: boolean): Array<[string, string]> {
  const bytes = (n: number) => (human ? formatBytes(n) : String(n));
  return [
    ['Files added', String(p.filesAdded)],
    ['Files replaced', String(p.filesReplaced)],
    ['Files unchanged', String(p.filesUnchanged)],
    ['Files removed', String(p.filesRemoved)],
    ['Bytes written', bytes(p.bytesWritten)],
    ['Bytes removed', bytes(p.bytesRemoved)],
    ['Before restore backup', p.safetyBackup ? (human ? 'yes, taken first' : 'yes') : 'no'],
    ['Files skipped', String(p.filesSkipped)],
  ];
}

function table(io: IO, head: string[], rows: string[][]): string {
  const require = createRequire(import.meta.url);
  const Table = require('cli-table3') as typeof import('cli-table3');
  const t = new Table({
    head,
    style: { head: io.color ? ['bold'] : [], border: io.color ? ['grey'] : [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const r of rows) t.push(r);
  return t.toString();
}

/** A file row of the piped plan: `removed|replaced|skipped<TAB>path[<TAB>visibility]`. */
const fileRow = (kind: string, f: PlanFile) =>
  [kind, f.path, ...(f.visibility ? [f.visibility] : [])].map((v) => sanitizeInline(v).replace(/\t/g, ' ')).join('\t');

/**
 * The plan as text: a table for a terminal; otherwise tab-separated `name<TAB>value` lines,
 * then one line per named file (deletions first), which scripts pick by their first field. A
 * file the service does not name gets no row: piped, the caller prints unnamedNote on stderr.
 */
export function formatPlan(io: IO, p: RestorePlan, tty: boolean): string {
  const rows = planRows(p, tty);
  const lines: string[] = [];
  if (tty) {
    lines.push(table(io, ['Plan', ''], rows));
    if (p.skipped.length)
      lines.push(
        'Skipped (storage no longer accepts these paths; they stay as they are):',
        ...p.skipped.map((s) => `  ${sanitizeInline(s)}`),
      );
    const note = unnamedNote(p);
    if (note) lines.push(note);
    return lines.join('\n');
  }
  for (const [k, v] of rows) lines.push(`${k}\t${v}`);
  lines.push(
    ...p.removedFiles.map((f) => fileRow('removed', f)),
    ...p.replacedFiles.map((f) => fileRow('replaced', f)),
  );
  lines.push(...p.skipped.map((s) => fileRow('skipped', { path: s })));
  return lines.join('\n');
}

/** The plan the user saw and the new one, side by side; changed rows are marked. */
export function formatPlanComparison(io: IO, before: RestorePlan | undefined, after: RestorePlan): string {
  const c = style(io);
  const old = before ? planRows(before, true) : undefined;
  const rows = planRows(after, true).map(([k, v], i) => {
    const was = old ? old[i][1] : '?';
    const changed = was !== v;
    return [changed ? c.yellow(`* ${k}`) : `  ${k}`, was, changed ? c.yellow(v) : v];
  });
  const lines = [table(io, ['', 'Plan you saw', 'New plan'], rows)];
  const newSkips = after.skipped.filter((s) => !before?.skipped.includes(s));
  if (newSkips.length) lines.push('Now skipped:', ...newSkips.map((s) => `  ${sanitizeInline(s)}`));
  return lines.join('\n');
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function named(list: PlanFile[], total: number, max = 8): string {
  if (list.length === 0) return ' (names not given)';
  const shown = list.slice(0, max).map((f) => sanitizeInline(f.visibility ? `${f.path} (${f.visibility})` : f.path));
  const rest = total - shown.length;
  return `: ${shown.join(', ')}${rest > 0 ? `, and ${rest} more` : ''}`;
}

/** What the restore will do, in words, deletions first: the lines of the confirmation. */
export function planConsequences(p: RestorePlan, mode: string): string[] {
  const out: string[] = [];
  if (p.filesRemoved > 0) {
    const what =
      mode === 'selected'
        ? `the other public or private ${p.filesRemoved === 1 ? 'copy' : 'copies'} of restored files`
        : 'files that are not in the backup';
    out.push(
      `DELETED: ${plural(p.filesRemoved, 'file')} (${formatBytes(p.bytesRemoved)}), ${what}${named(p.removedFiles, p.filesRemoved)}`,
    );
  }
  if (p.filesReplaced > 0)
    out.push(
      `OVERWRITTEN with the backup’s version: ${plural(p.filesReplaced, 'file')}${named(p.replacedFiles, p.filesReplaced)}`,
    );
  if (p.filesAdded > 0)
    out.push(
      `added back from the backup: ${plural(p.filesAdded, 'file')} (${formatBytes(p.bytesWritten)} written in all)`,
    );
  const leftAlone = (n: number) => (n === 1 ? 'left as it is' : 'left as they are');
  if (p.filesUnchanged > 0)
    out.push(`${plural(p.filesUnchanged, 'file')} already the same, ${leftAlone(p.filesUnchanged)}`);
  out.push(
    p.safetyBackup
      ? 'a Before restore backup of the whole current storage is taken first'
      : 'nothing is overwritten or deleted, so no Before restore backup is taken',
  );
  if (p.filesSkipped)
    out.push(`${plural(p.filesSkipped, 'file')} skipped (path no longer accepted), ${leftAlone(p.filesSkipped)}`);
  out.push('restored files are served by the live site at once; no publish is needed');
  return out;
}
