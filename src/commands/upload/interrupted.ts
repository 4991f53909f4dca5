// What an upload stopped by Ctrl-C (or SIGTERM) says: which files were stored (their addresses
// were printed), what became of the file being sent, and which were never sent. A file whose
// body did not go out whole cannot have been stored (the service reads the whole body first),
// so it is said not to be; one that went out whole but got no answer may have been, and is
// never reported as uploaded.
import type { Context } from '../../context.js';
import { InterruptedError } from '../../errors.js';
import { percent } from '../../io/progress-line.js';
import type { UploadPlanItem } from './files.js';
import type { UploadProgress } from './progress.js';

/** "1 of 3 files was", "2 of 3 files were": the verb agrees with the count. */
export const ofFiles = (n: number, total: number): string =>
  `${n} of ${total} file${total === 1 ? '' : 's'} ${n === 1 ? 'was' : 'were'}`;

export function interrupted(
  ctx: Context,
  plan: UploadPlanItem[],
  at: number,
  uploaded: unknown[],
  progress: Pick<UploadProgress, 'state' | 'fraction'>,
): InterruptedError {
  const reason = ctx.signal.reason instanceof Error ? ctx.signal.reason.message : '';
  const word = /^Terminated/.test(reason) ? 'Terminated' : 'Interrupted';
  const item = plan[at];
  const rest = plan.slice(at + 1);
  const current =
    progress.state === 'whole'
      ? `${item.file} was sent whole but its answer did not come: it may have been stored (upload it again to be sure).`
      : progress.state === 'part'
        ? `${item.file} was not stored (${percent(progress.fraction * item.size, item.size)} of it had been sent).`
        : `${item.file} was not sent.`;
  const before =
    uploaded.length === 0
      ? progress.state === 'whole'
        ? 'No other file was uploaded.'
        : 'Nothing was uploaded.'
      : `${ofFiles(uploaded.length, plan.length)} uploaded before it.`;
  const after =
    rest.length === 0
      ? ''
      : rest.length === 1
        ? ` ${rest[0].file} was not sent.`
        : ` ${rest.length} more files were not sent.`;
  return new InterruptedError(`${word}: ${current} ${before}${after}`, {
    uploaded,
    interrupted: { file: item.file, name: item.name, sent: progress.state },
    notSent: rest.map((r) => r.file),
  });
}
