// The two calls of restore_storage_backup: the plan (without confirm) and the start (with the
// exact confirm and the same backupId, mode and paths). A 409 carrying a new plan becomes a
// PlanChangedError; "already running" names the active restore and how to follow it.
import { LIMITS } from '../../api/limits.js';
import type { Envelope } from '../../api/call.js';
import type { Context } from '../../context.js';
import { ApiError, ConfirmationNeededError, requestNote, UsageError } from '../../errors.js';
import { notStarted, readActiveRestore, readPlanAnswer, restoreRowOf } from '../../service/storage-restore.js';
import { known } from '../../service/read.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { planIsEmpty, type RestorePlan } from './plan-view.js';
import { flag, sb } from '../../io/shell.js';
import type { MethodArgs } from '../../api/method-args.js';

export type RestoreMode = 'full' | 'selected';

export interface RestoreRequest {
  siteId: string;
  backupId: string;
  mode: RestoreMode;
  /** `selected` only: files, and folders ending with a slash. */
  paths: string[];
}

/** The restore in one line, heading what it would do (the walkthrough's confirmation, `plan`). */
export function describeRestore(r: RestoreRequest): string {
  const what = r.mode === 'full' ? 'in full' : `(${r.paths.length} selected path${r.paths.length === 1 ? '' : 's'})`;
  return `Restore storage backup ${sanitizeInline(r.backupId)} on site ${r.siteId} ${what}`;
}

export interface PlanAnswer {
  plan: RestorePlan;
  rawPlan: unknown;
  confirm: string;
}

/** The storage changed since the plan was made: the service sent a new plan and confirm. */
export class PlanChangedError extends ConfirmationNeededError {
  constructor(
    message: string,
    readonly answer: PlanAnswer,
    /** The request that was refused with the new plan, when the service named it. */
    readonly requestId?: string,
  ) {
    super(message, { plan: answer.rawPlan, confirm: answer.confirm });
  }
}

/** Checks --path values before anything is sent: not empty, at most 200, leading slashes dropped, no repeats. */
export function normalizePaths(mode: RestoreMode | undefined, paths: string[] | undefined): string[] {
  const list = paths ?? [];
  if (list.length && mode === 'full') {
    throw new UsageError(
      '--path is only for --mode selected; a full restore makes the whole storage match the backup (files added since are deleted).',
    );
  }
  const out: string[] = [];
  for (const raw of list) {
    const p = raw.trim().replace(/^\/+/, '');
    if (!p)
      throw new UsageError(
        `--path ${JSON.stringify(raw)} is empty; give a file path, or a folder ending with a slash.`,
      );
    if (!out.includes(p)) out.push(p);
  }
  if (out.length > LIMITS.selectedPathsMax) {
    throw new UsageError(
      `A selected restore takes at most ${LIMITS.selectedPathsMax} paths, not ${out.length}; name whole folders (ending with a slash) instead of their files.`,
    );
  }
  return out;
}

export function restoreArgs(r: RestoreRequest, confirm?: string): MethodArgs<'restore_storage_backup'> {
  const args: MethodArgs<'restore_storage_backup'> = { projectId: r.siteId, backupId: r.backupId, mode: r.mode };
  if (r.mode === 'selected') args.paths = r.paths;
  if (confirm !== undefined) args.confirm = confirm;
  return args;
}

const planAnswer = (data: unknown): PlanAnswer | undefined => readPlanAnswer(data);

export async function fetchPlan(ctx: Context, r: RestoreRequest): Promise<PlanAnswer> {
  let envelope: Envelope;
  try {
    ({ envelope } = await ctx.api().call('restore_storage_backup', restoreArgs(r), { signal: ctx.signal }));
  } catch (err) {
    throw explainActiveRestore(err, r);
  }
  const answer = planAnswer(envelope.data);
  if (!answer)
    throw new ApiError(
      { status: envelope.code ?? 200, method: 'restore_storage_backup', message: envelope.message },
      'The service answered the plan call without a plan and a confirm value.',
    );
  return answer;
}

/** Starts the restore; answers the restore row. */
export async function startRestore(ctx: Context, r: RestoreRequest, confirm: string): Promise<Record<string, unknown>> {
  try {
    const { envelope } = await ctx
      .api()
      .call('restore_storage_backup', restoreArgs(r, confirm), { signal: ctx.signal });
    const d = envelope.data;
    if (notStarted(d)) {
      // The plan call's answer: the service did not take the confirm as a start.
      const answer = planAnswer(d);
      if (answer)
        throw new PlanChangedError(
          'The service answered with a plan instead of starting the restore; nothing was restored.',
          answer,
        );
    }
    return restoreRowOf(d);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const changed = err.status === 409 ? planAnswer(err.data) : undefined;
    if (changed)
      throw new PlanChangedError(
        `${sanitizeInline(err.serviceMessage)} Nothing was restored.${requestNote(err.requestId)}`,
        changed,
        err.requestId,
      );
    throw explainActiveRestore(err, r);
  }
}

/** "A restore of this storage is already running!": name the running restore and how to follow it. */
function explainActiveRestore(err: unknown, r: RestoreRequest): unknown {
  if (!(err instanceof ApiError)) return err;
  const active = readActiveRestore(err.data);
  if (!active) return err;
  const id = known(active.id);
  const status = known(active.status);
  // No id: no command to follow it is printed (it would not work); waiting is the way.
  if (!id)
    return err.withSentence(
      `${sanitizeInline(err.serviceMessage)} The service did not name the running restore; try again once it has finished.`,
    );
  return err.withSentence(
    `${sanitizeInline(err.serviceMessage)} Restore ${sanitizeInline(id)}${status ? ` is ${sanitizeInline(status)}` : ''}; ` +
      `follow it with \`${sb('storage-restore status', r.siteId, id, flag('--wait'))}\`, then try again.`,
  );
}

/**
 * What `storage-restore plan --json` prints, and what a refused start prints before exit 5.
 * `request` holds exactly the arguments of the plan call, so a script can send the start
 * itself: `jq .request plan.json | sitebuilder api restore_storage_backup --input - -f confirm=…`.
 */
export function planDocument(r: RestoreRequest, answer: PlanAnswer): Record<string, unknown> {
  return {
    projectId: r.siteId,
    backupId: r.backupId,
    mode: r.mode,
    paths: r.mode === 'selected' ? r.paths : [],
    started: false,
    plan: answer.rawPlan,
    confirm: answer.confirm,
    request: restoreArgs(r),
    ...(planIsEmpty(answer.plan) ? { nothingToRestore: true } : {}),
  };
}

/** Said when the plan changes nothing, instead of how to start it. */
export const nothingToRestore = (r: RestoreRequest): string =>
  `Nothing to restore: the storage of site ${r.siteId} already matches backup ${sanitizeInline(r.backupId)} for what was asked.`;

/** The command that starts exactly this plan. */
export function startCommand(r: RestoreRequest, confirm: string): string {
  const paths = r.mode === 'selected' ? r.paths.map((p) => flag('--path', p)) : [];
  return sb(
    'storage-restore',
    r.siteId,
    flag('--backup', r.backupId),
    flag('--mode', r.mode),
    ...paths,
    flag('--confirm', confirm),
  );
}
