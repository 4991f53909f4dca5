// The values the backup nouns print alike (backup, code-backup, storage-backup, storage-restore):
// sizes, dates, and a --json document of the command's own keys then the service's data. The
// records are read by the model (src/service/backups.ts).
import { formatSize } from '../../io/bytes.js';
import { isoTime } from '../../io/records.js';

/** A size from the service (io/bytes.ts: KiB, MiB…); '' for what is not a number. */
export function formatBytes(value: unknown): string {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? formatSize(n) : '';
}

/** "2026-11-20 12:00 UTC" on a terminal (the same for every reader), ISO-8601 when piped. */
export function formatWhen(value: unknown, tty: boolean): string {
  const iso = isoTime(value);
  if (!tty || !iso || !/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso)) return iso;
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** formatWhen's day alone ("2026-11-20"), for a line too narrow for the time. */
export const dayOf = (when: string): string => /^\d{4}-\d\d-\d\d/.exec(when)?.[0] ?? when;

/**
 * A --json document: the command's own keys (always there, typed as documented), then the
 * service's data as it sent it, less fields of the same names.
 */
export function ownKeysThenData(own: Record<string, unknown>, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...own };
  for (const [k, v] of Object.entries(data)) if (!(k in own)) out[k] = v;
  return out;
}
