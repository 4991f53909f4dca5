// A storage backup's STATUS as `storage-backup list` and `create` print it. The record is read by
// the model (src/service/backups.ts), whose restorability says why one cannot be restored.
import { restorability, type StorageBackup } from '../../service/backups.js';

/** A storage backup's STATUS: its status word, or why it cannot be restored; never a word it did not send. */
export function statusText(b: StorageBackup): string {
  const r = restorability(b.raw);
  if (!r.restorable) return `${r.reason} (cannot be restored)`;
  return typeof b.status === 'string' ? b.status : 'not given';
}
