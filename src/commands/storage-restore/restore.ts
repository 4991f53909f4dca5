// `sitebuilder storage-restore <site>`: on a terminal, the walkthrough (pick a backup, a mode,
// for `selected` the files and folders; see the plan; confirm naming what is deleted; follow
// it to completed; a 409 shows the new plan beside the old and asks again). Without a
// terminal every part comes from flags, and a start needs --confirm (or --yes); otherwise it
// prints the plan and its confirm value and exits 5, having restored nothing.
import type { Context } from '../../context.js';
import {
  ConfirmationNeededError,
  ExitCode,
  InterruptedError,
  PendingError,
  requestNote,
  UsageError,
} from '../../errors.js';
import { noPromptBecause } from '../shared/confirm.js';
import { known } from '../../service/read.js';
import { readRestoreRow } from '../../service/storage-restore.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { withKeysGuarded } from '../../io/keyguard.js';
import { style } from '../../io/style.js';
import { defineCommand, type OptionsOf, SERVICE_EXITS } from '../../core/define.js';
import { followRestore } from './follow.js';
import { checkSelection, FOLLOW_OPTIONS, SELECTION_OPTIONS } from './options.js';
import { pickBackup, pickMode } from './pick-backup.js';
import { pickPaths } from './pick-paths.js';
import {
  formatPlan,
  formatPlanComparison,
  planConsequences,
  planIsEmpty,
  readPlan,
  type RestorePlan,
  unnamedNote,
  missingNote,
} from './plan-view.js';
import {
  describeRestore,
  fetchPlan,
  nothingToRestore,
  PlanChangedError,
  planDocument,
  startCommand,
  startRestore,
  type PlanAnswer,
  type RestoreRequest,
} from './request.js';
import { DEFAULT_RESTORE_TIMEOUT_MS, printRestore } from './status.js';
import { flag, sb } from '../../io/shell.js';
import { SITE_ARG } from '../shared/site-arg.js';

async function askToStart(ctx: Context, r: RestoreRequest, plan: RestorePlan, question: string): Promise<void> {
  ctx.io.errLine(`${describeRestore(r)}:`);
  for (const line of planConsequences(plan, r.mode)) ctx.io.errLine(`  - ${line}`);
  if (!(await ctx.prompter.confirm(question, false))) throw new InterruptedError('Cancelled; nothing was restored.');
}

/** A call of the walkthrough: on a terminal, keys typed meanwhile neither echo nor answer the next question. */
const guarded = <T>(ctx: Context, work: () => Promise<T>): Promise<T> =>
  ctx.prompter.canPrompt() ? withKeysGuarded(ctx.io, ctx.interrupts, work) : work();

/** Without a prompt: the plan and its confirm on stdout, so a script can check it and start it. */
function printPlanForScript(ctx: Context, r: RestoreRequest, answer: PlanAnswer): void {
  if (ctx.globals.json) {
    ctx.io.printJson(planDocument(r, answer));
    return;
  }
  ctx.io.outLine(formatPlan(ctx.io, answer.plan, ctx.io.stdoutIsTTY));
  ctx.io.outLine(`Confirm\t${answer.confirm}`);
  if (!ctx.io.stdoutIsTTY)
    for (const note of [unnamedNote(answer.plan), missingNote(answer.plan)]) if (note) ctx.io.info(note);
}

function nothingToDo(ctx: Context, r: RestoreRequest, answer: PlanAnswer): number {
  if (ctx.globals.json) ctx.io.printJson(planDocument(r, answer));
  else ctx.io.outLine(ctx.io.prose(nothingToRestore(r), 'stdout'));
  return 0;
}

async function resolveRequest(
  ctx: Context,
  siteId: string,
  opts: OptionsOf<typeof storageRestoreCommand>,
): Promise<RestoreRequest> {
  const flagPaths = checkSelection(opts);
  if (opts.confirm !== undefined && opts.confirm.trim() === '')
    throw new UsageError('--confirm is empty; `storage-restore plan` prints the value.');
  // --path alone means a selected restore; nothing else to ask.
  const modeGiven = opts.mode ?? (flagPaths.length ? 'selected' : undefined);
  if (opts.confirm && (!opts.backup || !modeGiven))
    throw new UsageError(
      '--confirm starts the plan it came from: give the same --backup, --mode and --path values too.',
    );
  if (!ctx.prompter.canPrompt()) {
    // Say every missing flag before anything is sent.
    if (!opts.backup)
      ctx.prompter.require(
        'Choosing a storage backup',
        `pass --backup ID (\`${sb('storage-backup list', siteId)}\` shows them)`,
      );
    if (!modeGiven) ctx.prompter.require('Choosing the restore mode', 'pass --mode full or --mode selected');
  }
  if (modeGiven === 'selected' && flagPaths.length === 0 && (opts.confirm || !ctx.prompter.canPrompt())) {
    throw new UsageError('--mode selected needs at least one --path (a file, or a folder ending with a slash).');
  }
  const backupId = opts.backup ?? (await pickBackup(ctx, siteId));
  const mode = modeGiven ?? (await pickMode(ctx));
  const paths = mode === 'selected' && flagPaths.length === 0 ? await pickPaths(ctx, siteId, backupId) : flagPaths;
  return { siteId, backupId, mode, paths };
}

export async function runStorageRestore(opts: OptionsOf<typeof storageRestoreCommand>, ctx: Context): Promise<number> {
  const siteId = ctx.site(opts.site);
  const request = await resolveRequest(ctx, siteId, opts);
  const interactive = ctx.prompter.canPrompt();
  let confirm = opts.confirm;
  let shown: RestorePlan | undefined;
  if (!confirm) {
    const answer = await guarded(ctx, () => fetchPlan(ctx, request));
    if (planIsEmpty(answer.plan)) return nothingToDo(ctx, request, answer);
    shown = answer.plan;
    confirm = answer.confirm;
    if (interactive) {
      ctx.io.errLine(formatPlan(ctx.io, answer.plan, true));
      if (!ctx.globals.yes) await askToStart(ctx, request, answer.plan, 'Start the restore?');
    } else if (!ctx.globals.yes) {
      printPlanForScript(ctx, request, answer);
      throw new ConfirmationNeededError(
        `${describeRestore(request)} needs confirmation and no prompt is possible here${noPromptBecause(ctx.io, ctx.env)}; check the plan, then start exactly it with ` +
          `--confirm ${answer.confirm} (or pass --yes). Nothing was restored.`,
        { confirm: answer.confirm, command: startCommand(request, answer.confirm) },
      );
    }
  }
  let row: Record<string, unknown>;
  for (;;) {
    try {
      const confirmed = confirm;
      row = await guarded(ctx, () => startRestore(ctx, request, confirmed));
      break;
    } catch (err) {
      if (!(err instanceof PlanChangedError)) throw err;
      const next = err.answer;
      if (!interactive) {
        printPlanForScript(ctx, request, next);
        throw new PlanChangedError(
          `The storage changed since the plan was made, so nothing was restored${requestNote(err.requestId)}. The new plan is printed above; check it, then start exactly it with --confirm ${next.confirm}.`,
          next,
        );
      }
      ctx.io.errLine(formatPlanComparison(ctx.io, shown, next.plan, err.requestId));
      if (planIsEmpty(next.plan)) return nothingToDo(ctx, request, next);
      await askToStart(ctx, request, next.plan, 'Start with the new plan?');
      shown = next.plan;
      confirm = next.confirm;
    }
  }
  const restoreId = known(readRestoreRow(row).id) ?? '';
  // Scripts meet one convention: a started restore is waited for, as publish waits until live.
  const wait = opts.wait ?? true;
  if (!restoreId) {
    // The row's `_id` is what get_storage_restore_status takes: without it the restore (which
    // started) cannot be followed, and no empty id is printed in its place. The id is stdout's
    // contract: the exit code says it is missing (1; 8 where it was to be followed).
    if (ctx.globals.json) ctx.io.printJson({ started: true, restore: row });
    const sentence = `Storage restore of site ${siteId} started, but the service’s answer named no restore id, so it cannot be followed here; restored files are served as soon as it completes.`;
    if (wait) throw new PendingError(sentence, { restore: row });
    ctx.io.warn(sentence);
    return ExitCode.failure;
  }
  if (!wait) {
    if (ctx.globals.json) ctx.io.printJson({ started: true, restore: row });
    else ctx.io.outLine(restoreId);
    ctx.io.info(
      `Storage restore ${sanitizeInline(restoreId)} started; follow it with \`${sb('storage-restore status', siteId, restoreId, flag('--wait'))}\`.`,
    );
    return 0;
  }
  ctx.io.info(`Storage restore ${sanitizeInline(restoreId)} started.`);
  const final = await followRestore(
    ctx,
    siteId,
    restoreId,
    opts.timeout ?? DEFAULT_RESTORE_TIMEOUT_MS,
    opts.reconnectFor,
  ).catch((err: unknown) => {
    // Still going on (--timeout, no connection): the restore started, and that is data.
    if (ctx.globals.json && err instanceof PendingError) ctx.io.printJson({ started: true, restore: row });
    throw err;
  });
  if (ctx.globals.json) {
    ctx.io.printJson({ started: true, restore: final });
    return 0;
  }
  printRestore(ctx, final);
  const plan = readPlan(final.plan ?? {});
  const safety = known(readRestoreRow(final).safetyBackupId);
  if (ctx.io.canAnimate)
    ctx.io.errLine(
      `${style(ctx.io).green('✓')} Storage restore ${sanitizeInline(restoreId)} completed; restored files are live now.`,
    );
  if (safety) ctx.io.info(`To undo it, restore the Before restore backup ${sanitizeInline(safety)}.`);
  else if (plan.safetyBackup || shown?.safetyBackup)
    ctx.io.info(
      `A Before restore backup was taken first; \`${sb('storage-backup list', siteId)}\` shows it, to undo this.`,
    );
  return 0;
}

export const storageRestoreCommand = defineCommand({
  name: 'storage-restore',
  summary: 'Restore stored files from a storage backup (walkthrough on a terminal)',
  description:
    'Restore the site’s stored files from a storage backup. The service plans first (files added, replaced and removed, bytes, a Before restore backup), then starts exactly that plan given its confirm value; if the storage changed meanwhile, it refuses with a new plan. full makes the storage match the backup: files added since are DELETED. selected restores only the --path files and folders.\nOn a terminal, what is missing is asked for and the plan is confirmed; a script gives the flags and --confirm VALUE (from `storage-restore plan`) or --yes. The restore is followed until it reads completed.',
  exitCodes: `0 completed (--no-wait: started), 5 needs --confirm or --yes, 8 --timeout, 130 declined or Ctrl-C; ${SERVICE_EXITS}`,
  learnMore: 'docs/guide.md#storage-restore, docs/scripting.md#storage-restore-from-a-script',
  args: [SITE_ARG],
  options: [...SELECTION_OPTIONS, ...FOLLOW_OPTIONS],
  examples: [
    'sitebuilder storage-restore s_123',
    'sitebuilder storage-restore plan s_123 --backup sb_4 --mode full --json',
    'sitebuilder storage-restore s_123 --backup sb_4 --mode full --confirm rc_1a2b3c4d5e6f',
    'sitebuilder storage-restore s_123 -b sb_4 --path images/ --path docs/terms.pdf --yes --json',
    'sitebuilder storage-restore s_123 -b sb_4 --mode full --yes --no-wait   # the restore id, at once',
  ],
  jsonFields:
    '{ started: true, restore: the restore row as the service sends it (the service shows _id and status; our emulator’s fields, for example: backupId, mode, paths, plan, safetyBackupId) }; exit 5 prints the plan document of `storage-restore plan --json`',
  run: (opts, ctx): Promise<number> => runStorageRestore(opts, ctx),
});
