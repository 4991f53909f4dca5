// The storage restore plan, read tolerantly and shown as a table: alone, or side by side with
// the plan the user saw when the service answers 409 with a new one. Pure functions over a
// plan, so the walkthrough, `storage-restore plan` and the tests share them.
import { requestNote } from '../../errors.js';
import type { IO } from '../../io/io.js';
import { layoutTable } from '../../io/layout.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { style } from '../../io/style.js';
import { wrapLine } from '../../io/width.js';
import { type PlanCount, type PlanFile, type RestorePlan, readPlan } from '../../service/storage-restore.js';
import { formatBytes } from '../shared/format.js';

export { type PlanFile, type RestorePlan, readPlan };

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

/**
 * Nothing would be written or deleted: starting the restore would change nothing. Never
 * concluded from a count the plan did not give.
 */
export const planIsEmpty = (p: RestorePlan): boolean =>
  !p.missing.some((k) => k === 'filesAdded' || k === 'filesReplaced' || k === 'filesRemoved') &&
  p.filesAdded + p.filesReplaced + p.filesRemoved === 0;

/** Said wherever the plan is shown when it left out counts it states. */
export function missingNote(p: RestorePlan): string | undefined {
  return p.missing.length
    ? `The service’s plan did not give ${p.missing.join(', ')}; --json shows what it sent.`
    : undefined;
}

const NOT_GIVEN = 'not given';

export function planRows(p: RestorePlan, human: boolean): Array<[string, string]> {
  const given = (k: PlanCount, text: (n: number) => string) => (p.missing.includes(k) ? NOT_GIVEN : text(p[k]));
  const files = (k: PlanCount) => given(k, String);
  const bytes = (k: PlanCount) => given(k, (n) => (human ? formatBytes(n) : String(n)));
  return [
    ['Files added', files('filesAdded')],
    ['Files replaced', files('filesReplaced')],
    ['Files unchanged', files('filesUnchanged')],
    ['Files removed', files('filesRemoved')],
    ['Bytes written', bytes('bytesWritten')],
    ['Bytes removed', bytes('bytesRemoved')],
    ['Before restore backup', p.safetyBackup ? (human ? 'yes, taken first' : 'yes') : 'no'],
    ['Files skipped', String(p.filesSkipped)],
  ];
}

/** A table fitted to the terminal by the shared layer (io/layout.ts): headers bold on a colour terminal. */
function table(io: IO, head: string[], rows: string[][]): string {
  const paint = io.color ? (text: string) => style(io).bold(text) : undefined;
  return layoutTable(
    head.map((header) => ({ header, free: false })),
    rows,
    io.columns,
    paint,
  ).lines.join('\n');
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
    // Sentences wrap to the terminal; a path stays whole on its line (a value to copy).
    const prose = (text: string) => wrapLine(text, io.columns);
    lines.push(table(io, ['PLAN', ''], rows));
    if (p.skipped.length)
      lines.push(
        ...prose('Skipped (storage no longer accepts these paths; they stay as they are):'),
        ...p.skipped.map((s) => `  ${sanitizeInline(s)}`),
      );
    for (const note of [unnamedNote(p), missingNote(p)]) if (note) lines.push(...prose(note));
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

/** A row of the comparison: what it is, and its value in each plan (undefined: not in that plan). */
interface Compared {
  what: string;
  before?: string;
  after?: string;
}

/** The file rows of a plan, by what happens to the file and its path: their size (or a dash). */
function fileRows(p: RestorePlan): Map<string, string> {
  const rows = new Map<string, string>();
  const add = (kind: string, f: PlanFile) =>
    rows.set(
      `${kind}: ${sanitizeInline(f.visibility ? `${f.path} (${f.visibility})` : f.path)}`,
      f.size === undefined ? '-' : formatBytes(f.size),
    );
  for (const f of p.removedFiles) add('deleted', f);
  for (const f of p.replacedFiles) add('overwritten', f);
  for (const s of p.skipped) add('skipped', { path: s });
  return rows;
}

/** What differs between the plan the user saw and the new one: counts, then named files. */
export function planChanges(before: RestorePlan, after: RestorePlan): Compared[] {
  const old = new Map(planRows(before, true));
  const changes: Compared[] = planRows(after, true)
    .filter(([k, v]) => old.get(k) !== v)
    .map(([what, v]) => ({ what, before: old.get(what), after: v }));
  const was = fileRows(before);
  const now = fileRows(after);
  for (const [what, v] of now) if (was.get(what) !== v) changes.push({ what, before: was.get(what), after: v });
  for (const [what, v] of was) if (!now.has(what)) changes.push({ what, before: v });
  return changes;
}

const MARKS = { changed: '~', added: '+', gone: '-' };

/**
 * The storage changed since the plan the user saw: one sentence saying so and how the new plan
 * differs, then the rows that differ, marked ~ changed, + new in this plan, - no longer in it.
 */
export function formatPlanComparison(
  io: IO,
  before: RestorePlan | undefined,
  after: RestorePlan,
  requestId?: string,
): string {
  const lead = `The storage changed since the plan you saw, so nothing was restored${requestNote(requestId)}`;
  if (!before) return `${lead}; the new plan is below.`;
  const changes = planChanges(before, after);
  if (changes.length === 0)
    return `${lead}; the new plan reads the same in what the service shows (it counts files it does not name, which may differ).`;
  const rows = changes.map((c) => {
    const mark = c.before === undefined ? MARKS.added : c.after === undefined ? MARKS.gone : MARKS.changed;
    return [`${mark} ${c.what}`, c.before ?? '', c.after ?? ''];
  });
  const n = changes.length;
  return [
    `${lead}; the new plan differs in ${n} row${n === 1 ? '' : 's'} (~ changed, + new, - no longer in it):`,
    table(io, ['WHAT', 'YOU SAW', 'NEW PLAN'], rows),
  ].join('\n');
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
  if (p.missing.includes('filesRemoved'))
    out.push('DELETED: the plan does not say how many files; read it with --json before you go on');
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
