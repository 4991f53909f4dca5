// Walkthrough steps: pick a storage backup (with its date and size) and the restore mode.
// Backups that look like they cannot be restored (still archiving, failed, older format) come
// last and are marked; the user is told which and why, and the service decides.
import { paginate } from '../../api/paginate.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { readStorageBackup, restorability, storageBackupId } from '../../service/backups.js';
import { known } from '../../service/read.js';
import { newestFirst } from '../../service/time.js';
import { dayOf, formatBytes, formatWhen } from '../storage-backup/format.js';
import type { RestoreMode } from './request.js';
import { sb } from '../../io/shell.js';
import { fitChoice } from '../../io/prompter.js';

const MAX_OFFERED = 100;

export function backupChoiceLabel(b: unknown): string {
  return backupChoiceLabels(b)[0];
}

/** A backup's line in the picker, most detailed first: then unpadded, without the file count, the day alone. */
export function backupChoiceLabels(raw: unknown, suffix = ''): string[] {
  const b = readStorageBackup(raw);
  const files = known(b.files);
  const when = formatWhen(known(b.created), true);
  const day = dayOf(when);
  const size = formatBytes(known(b.size));
  const count = files === undefined ? '' : `${files} files`;
  const label = known(b.label) ?? '';
  const line = (parts: string[], gap = '  ') => sanitizeInline(parts.filter(Boolean).join(gap) + suffix);
  return [
    line([when, size.padStart(8), files === undefined ? '' : `${String(files).padStart(4)} files`, label]),
    line([when, size, count, label]),
    line([when, size, label]),
    line([day, size, label]),
    line([day, size, label], ' '),
  ];
}

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
  // Whether a backup can be restored is read from fields the service does not show: advice
  // only. Those that look unrestorable come last, marked; the plan call is what decides.
  const { records: items, sorted } = newestFirst(listed, (b) => known(readStorageBackup(b).created));
  const likely = items.filter((b) => restorability(b).restorable);
  const unlikely = items.filter((b) => !restorability(b).restorable);
  if (unlikely.length)
    ctx.io.errLine(
      `These look like they cannot be restored, so they come last (the service decides): ${unlikely
        .map((b) => `${sanitizeInline(storageBackupId(b))} (${sanitizeInline(restorability(b).reason ?? '')})`)
        .join(', ')}.`,
    );
  return ctx.prompter.select(
    sorted ? 'Which storage backup? (newest first)' : 'Which storage backup?',
    [...likely, ...unlikely].slice(0, MAX_OFFERED).map((b) => {
      const r = restorability(b);
      const id = sanitizeInline(storageBackupId(b));
      const labels = backupChoiceLabels(
        b,
        r.restorable ? '' : `  (looks like it cannot be restored: ${sanitizeInline(r.reason ?? '')})`,
      );
      return { ...fitChoice(ctx.io.columns, labels, id), value: storageBackupId(b), picked: id };
    }),
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
