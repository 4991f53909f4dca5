// The one reader of the counts a storage restore row or a storage backup being archived may
// carry. The service's reference shows none ("not shown"); our emulator sends
// `progress: { filesDone, filesTotal, bytesDone, bytesTotal }` (docs/emulator.md "Storage
// backups"), and the real service may send nothing of the kind, or something else. So only
// that shape is read, and only counts that make sense (whole numbers, done within total):
// anything else reads as no counts, and the CLI shows its spinner with the elapsed time, never
// a count it guessed (docs/real-service.md).

export interface Count {
  done: number;
  total: number;
}

export interface StorageProgress {
  files?: Count;
  bytes?: Count;
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

function countOf(done: unknown, total: unknown): Count | undefined {
  if (!isCount(done) || !isCount(total) || total === 0 || done > total) return undefined;
  return { done, total };
}

/** The counts of a restore row or a backup record, or undefined when it carries none we can read. */
export function readStorageProgress(row: unknown): StorageProgress | undefined {
  if (row === null || typeof row !== 'object') return undefined;
  const p = (row as Record<string, unknown>).progress;
  if (p === null || typeof p !== 'object' || Array.isArray(p)) return undefined;
  const r = p as Record<string, unknown>;
  const files = countOf(r.filesDone, r.filesTotal);
  const bytes = countOf(r.bytesDone, r.bytesTotal);
  if (!files && !bytes) return undefined;
  return { ...(files ? { files } : {}), ...(bytes ? { bytes } : {}) };
}
