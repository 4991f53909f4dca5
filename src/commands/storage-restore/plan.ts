// `sitebuilder storage-restore plan <site> --backup ID --mode full|selected [--path P]...`:
// the first call of the two-call restore. Nothing is restored; prints the plan and its
// confirm value, which `storage-restore <site> … --confirm VALUE` takes to start exactly it.
import { UsageError } from '../../errors.js';
import { defineCommand, type FlagsOf, SERVICE_EXITS } from '../../core/define.js';
import { checkSelection, type FOLLOW_OPTIONS, SELECTION_OPTIONS } from './options.js';
import { formatPlan, missingNote, planConsequences, planIsEmpty, unnamedNote } from './plan-view.js';
import {
  describeRestore,
  fetchPlan,
  nothingToRestore,
  planDocument,
  startCommand,
  type RestoreRequest,
} from './request.js';
import { SITE_ARG } from '../shared/site-arg.js';

export const plan = defineCommand({
  name: 'plan',
  summary: 'Show what a storage restore would do, and its confirm value (restores nothing)',
  description:
    'Asks the service for the plan of a storage restore: files added, replaced, unchanged and removed, bytes written and ' +
    'removed, whether a Before restore backup is taken, and files skipped because storage no longer accepts their path. ' +
    'Nothing is restored. The confirm value starts exactly this plan; if the storage changes in between, the start is ' +
    'refused with a new plan.',
  exitCodes: `0 planned (nothing restored); ${SERVICE_EXITS}`,
  learnMore: 'docs/scripting.md#storage-restore-from-a-script',
  args: [SITE_ARG],
  options: SELECTION_OPTIONS,
  examples: [
    'sitebuilder storage-restore plan s_123 --backup sb_4 --mode full',
    'sitebuilder storage-restore plan s_123 --backup sb_4 --mode selected --path images/ --path docs/terms.pdf --json',
    'CONFIRM=$(sitebuilder storage-restore plan s_123 -b sb_4 -m full --json | jq -r .confirm)',
  ],
  jsonFields:
    '{ projectId, backupId, mode, paths, started: false, plan: the service’s plan as it sends it (the service shows filesAdded, filesReplaced, filesUnchanged, filesRemoved, bytesWritten, bytesRemoved, safetyBackup, filesSkipped; our emulator adds removedFiles, replacedFiles), ' +
    'confirm, request: the arguments of the plan call (projectId, backupId, mode, paths), nothingToRestore: true when the plan changes nothing }',
  async run(opts, ctx) {
    // The parent command parses the options it shares with this one, so these can arrive here.
    const extra = opts as typeof opts & FlagsOf<typeof FOLLOW_OPTIONS>;
    if (extra.confirm !== undefined)
      throw new UsageError(
        '`storage-restore plan` only shows the plan; start it with `storage-restore <site> … --confirm VALUE`.',
      );
    const siteId = ctx.site(opts.site);
    const paths = checkSelection(opts);
    if (!opts.backup)
      throw new UsageError('Name the storage backup with --backup ID (`sitebuilder storage-backup list` shows them).');
    // --path alone means a selected restore, as for `storage-restore <site>`.
    const mode = opts.mode ?? (paths.length ? 'selected' : undefined);
    if (!mode)
      throw new UsageError('Pick --mode full (storage made to match the backup) or --mode selected (with --path).');
    if (mode === 'selected' && paths.length === 0)
      throw new UsageError('--mode selected needs at least one --path (a file, or a folder ending with a slash).');
    const request: RestoreRequest = { siteId, backupId: opts.backup, mode, paths };
    const answer = await fetchPlan(ctx, request);
    if (ctx.globals.json) return ctx.io.printJson(planDocument(request, answer));
    const tty = ctx.io.stdoutIsTTY;
    const empty = planIsEmpty(answer.plan);
    ctx.io.outLine(formatPlan(ctx.io, answer.plan, tty));
    // Piped, a file the service does not name has no row: say so (on a terminal the table does).
    if (!tty) for (const note of [unnamedNote(answer.plan), missingNote(answer.plan)]) if (note) ctx.io.info(note);
    // On a terminal the table gives counts; name what is deleted and overwritten too, under the
    // heading the walkthrough's confirmation has (after the skipped paths, they would read as skipped).
    if (tty && !empty) {
      ctx.io.outLine(ctx.io.prose(`${describeRestore(request)}:`, 'stdout'));
      for (const line of planConsequences(answer.plan, mode)) ctx.io.outLine(ctx.io.prose(`  - ${line}`, 'stdout'));
    }
    ctx.io.outLine(tty ? `Confirm value: ${answer.confirm}` : `Confirm\t${answer.confirm}`);
    ctx.io.info(
      empty
        ? nothingToRestore(request)
        : `Nothing was restored. To start exactly this plan:\n  ${startCommand(request, answer.confirm)}`,
    );
  },
});
