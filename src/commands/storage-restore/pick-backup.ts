// Walkthrough steps: pick a storage backup (with its date and size) and the restore mode.
// Backups that cannot be restored (still archiving, failed, older format) are not offered;
// the user is told which and why.
import { paginate } from '../../api/paginate.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import {
  createdAt,
  fileCountOf,
  formatBytes,
  formatWhen,
  labelOf,
  restorability,
  sizeOf,
  storageBackupId,
} from '../storage-backup/format.js';
import type { RestoreMode } from './request.js';

const MAX_OFFERED = 100;

export function backupChoiceLabel(b: unknown): string {
  const files = fileCountOf(b);
  const parts = [
    formatWhen(createdAt(b), true),
    formatBytes(sizeOf(b)).padStart(8),
    files === undefined ? '' : `${String(files).padStart(4)} files`,
    labelOf(b),
  ];
  return sanitizeInline(parts.filter(Boolean).join('  '));
}

export async function pickBackup(ctx: Context, siteId: string): Promise<string> {
  ctx.prompter.require(
    'Choosing a storage backup',
    `pass --backup ID (\`sitebuilder storage-backup list ${siteId}\` shows them)`,
  );
  const restorable: unknown[] = [];
  const others: string[] = [];
  for await (const b of paginate(
    ctx.api(),
    'list_storage_backups',
    { projectId: siteId },
    { signal: ctx.signal, max: 500 },
  )) {
    const r = restorability(b);
    if (r.restorable) restorable.push(b);
    else others.push(`${sanitizeInline(storageBackupId(b))} (${r.reason})`);
  }
  if (others.length) ctx.io.errLine(`Not offered, as they cannot be restored: ${others.join(', ')}.`);
  if (restorable.length === 0) {
    throw new CliError(
      `Site ${siteId} has no storage backup that can be restored${others.length ? '' : ' (it has none)'}; take one with \`sitebuilder storage-backup create ${siteId}\`.`,
    );
  }
  return ctx.prompter.select(
    'Which storage backup? (newest first)',
    restorable.slice(0, MAX_OFFERED).map((b) => ({
      label: backupChoiceLabel(b),
      value: storageBackupId(b),
      hint: sanitizeInline(storageBackupId(b)),
    })),
  );
}

export async function pickMode(ctx: Context): Promise<RestoreMode> {
  ctx.prompter.require('Choosing the restore mode', 'pass --mode full or --mode selected');
  return ctx.prompter.select<RestoreMode>('Restore what?', [
    { label: 'Everything (full): make the storage match the backup; files added since are deleted', value: 'full' },
    { label: 'Selected files and folders: pick them in the backup', value: 'selected' },
  ]);
}
