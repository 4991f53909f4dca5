// The counts of a storage restore or of a backup being archived, on the spinner's line, when
// its status carries them (read by service/storage-progress.ts): done and total, percent, the
// rate over the last reads and the time left. Without counts, the spinner keeps its label and
// elapsed time: nothing is guessed.
import type { Context } from '../../context.js';
import { type ProgressState, progressText } from '../../io/progress-line.js';
import { RateMeter } from '../../io/rate.js';
import type { Spinner } from '../../io/spinner.js';
import { readStorageProgress } from '../../service/storage-progress.js';

/** A function to call with each status read. */
export function storageProgress(ctx: Context, spinner: Spinner, verb: string): (row: unknown) => void {
  // Reads come every few seconds: the rate looks further back than an upload's.
  const meter = new RateMeter(ctx.clock, 20_000, 2_000);
  return (row) => {
    const counts = readStorageProgress(row);
    if (!counts) return spinner.line(undefined);
    const main = counts.bytes ?? counts.files;
    if (!main) return spinner.line(undefined);
    meter.add(main.done);
    const state: ProgressState = {
      verb,
      done: main.done,
      total: main.total,
      unit: counts.bytes ? 'bytes' : 'files',
      also: counts.bytes && counts.files ? `${counts.files.done}/${counts.files.total} files` : undefined,
      // Taken now: between two reads nothing new is known, so the rate shown does not drift.
      rate: meter.rate(),
    };
    spinner.line((width) => progressText(state, width));
  };
}
