// Walkthrough steps: pick a storage backup (with its date and size) and the restore mode.
// Backups that read as unrestorable (still archiving, failed, older format) come last, with
// the reason, and cannot be picked; --backup ID sends one anyway, and the service decides.
import { paginate } from '../../api/paginate.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { readStorageBackup, restorability, storageBackupId } from '../../service/backups.js';
import { known } from '../../service/read.js';
import { newestFirst } from '../../service/time.js';
import { dayOf, formatBytes, formatWhen } from '../shared/format.js';
import type { RestoreMode } from './request.js';
import { sb } from '../../io/shell.js';
import { type ChoiceLines, type ChoiceRow, fitChoices } from '../../io/choice-layout.js';
import { sayCut } from '../../io/print.js';

const MAX_OFFERED = 100;

/**
 * A backup's row in the picker (io/choice-layout.ts): its date (or day), size and file count,
 * then its label; one that cannot be restored says why first (`(failed) Daily backup`). The id
 * comes last.
 */
export function backupChoiceRow(raw: unknown): ChoiceRow {
  const b = readStorageBackup(raw);
  const files = known(b.files);
  const when = formatWhen(known(b.created), true);
  const r = restorability(raw);
  const label = known(b.label) ?? '';
  const why = r.restorable ? '' : `(${r.reason ?? 'not restorable'})`;
  return {
    cells: [
      [when, dayOf(when)],
      formatBytes(known(b.size)),
      files === undefined ? '' : `${files} files`,
      sanitizeInline([why, label].filter(Boolean).join(' ')),
    ].map((c) => (typeof c === 'string' ? sanitizeInline(c) : c.map(sanitizeInline))),
    id: sanitizeInline(storageBackupId(raw)),
  };
}

/** The rows laid out at the width: the file count goes first, then the size. */
export const backupChoiceLines = (columns: number, backups: unknown[]): string[] =>
  fitBackupChoices(columns, backups).lines;

/** backupChoiceLines, and whether a label was cut with … */
const fitBackupChoices = (columns: number, backups: unknown[]): ChoiceLines =>
  fitChoices(columns, backups.map(backupChoiceRow), { optional: [2, 1] });

export async function pickBackup(ctx: Context, siteId: string): Promise<string> {
  ctx.prompter.require(
    'Choosing a storage backup',
    `pass --backup ID (\`${sb('storage-backup list', siteId)}\` shows them)`,
  );
  const listed: unknown[] = [];
  for await (const b of paginate(
    ctx.api(),
    'list_storage_backups',
    { projectId: siteId },
    { signal: ctx.signal, max: 500 },
  ))
    if (storageBackupId(b)) listed.push(b);
  if (listed.length === 0) {
    throw new CliError(
      `Site ${siteId} has no storage backups; take one with \`${sb('storage-backup create', siteId)}\`.`,
    );
  }
  // Whether a backup can be restored is read from fields the service does not show: those that
  // read as unrestorable are shown last, with the reason, and cannot be picked; --backup ID
  // still sends one, and the service decides.
  const { records: items, sorted } = newestFirst(listed, (b) => known(readStorageBackup(b).created));
  const likely = items.filter((b) => restorability(b).restorable);
  const unlikely = items.filter((b) => !restorability(b).restorable);
  const named = unlikely
    .map((b) => `${sanitizeInline(storageBackupId(b))} (${sanitizeInline(restorability(b).reason ?? '')})`)
    .join(', ');
  if (likely.length === 0)
    throw new CliError(
      `No storage backup of site ${siteId} can be restored: ${named}. Take one with \`${sb('storage-backup create', siteId)}\`, or name one with --backup ID to ask the service anyway.`,
    );
  if (unlikely.length)
    ctx.io.errLine(
      `These cannot be restored, so they are shown last and cannot be picked: ${named}. (Read from the listing; --backup ID sends one anyway, and the service decides.)`,
    );
  const offered = [...likely, ...unlikely].slice(0, MAX_OFFERED);
  const { lines, cut } = fitBackupChoices(ctx.io.columns, offered);
  if (cut) sayCut(ctx.io, `${sb('storage-backup list', siteId)} | cat`);
  return ctx.prompter.select(
    sorted ? 'Which storage backup? (newest first)' : 'Which storage backup?',
    offered.map((b, i) => ({
      label: lines[i],
      value: storageBackupId(b),
      picked: sanitizeInline(storageBackupId(b)),
      disabled: !restorability(b).restorable,
    })),
  );
}

export async function pickMode(ctx: Context): Promise<RestoreMode> {
  ctx.prompter.require('Choosing the restore mode', 'pass --mode full or --mode selected');
  ctx.io.errLine('Everything: the storage is made to match the backup; files added since are deleted.');
  ctx.io.errLine('Selected: only the files and folders you tick in the backup.');
  return ctx.prompter.select<RestoreMode>('Restore what?', [
    { label: 'Everything (full)', value: 'full' },
    { label: 'Selected files and folders', value: 'selected' },
  ]);
}
