// `sitebuilder code-backup restore <site> <codeBackupId>`: reverts the agent's files to a code
// backup. The service also deletes the whole chat history of the site for everyone and
// discards queued messages, takes no backup first and does not publish: the confirmation says
// so in plain words before anything is sent.
import { fitChoices } from '../../io/choice-layout.js';
import { sayCut } from '../../io/print.js';
import { itemsOf } from '../../api/paginate.js';
import type { Context } from '../../context.js';
import { ApiError, UsageError } from '../../errors.js';
import { confirmDestructive } from '../shared/confirm.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { defineCommand, type OptionsOf } from '../../core/define.js';
import { readCodeBackup, readStoppedRun } from '../../service/backups.js';
import { known, recordOf } from '../../service/read.js';
import { newestFirst } from '../../service/time.js';
import { dayOf, formatWhen, ownKeysThenData } from '../shared/format.js';
import { sb } from '../../io/shell.js';
import { LIVE_SITE_KEPT, sayNotPublished } from '../shared/not-published.js';
import type { MethodArgs } from '../../api/method-args.js';
import { SITE_ARG } from '../shared/site-arg.js';

export const CODE_RESTORE_CONSEQUENCES = [
  'the whole chat history of this site is deleted, for everyone in the project; this cannot be undone',
  'messages waiting in the queue are discarded unsent',
  'files the agent wrote since the backup are reverted, and files added since are deleted',
  'no backup is taken first',
  LIVE_SITE_KEPT,
];

async function pickCodeBackup(ctx: Context, siteId: string): Promise<string> {
  ctx.prompter.require('Choosing a code backup', `name it: \`${sb('code-backup restore', siteId, 'CODE_BACKUP_ID')}\``);
  const { envelope } = await ctx
    .api()
    .call('list_code_backups', { projectId: siteId, page: 1 }, { signal: ctx.signal });
  // A record without an id cannot be restored by the command: not offered.
  const items = itemsOf(envelope.data)
    .map(readCodeBackup)
    .filter((b) => known(b.id));
  if (items.length === 0) throw new UsageError(`Site ${siteId} has no code backups.`);
  const { records: ordered, sorted } = newestFirst(items, (b) => known(b.created));
  // Its date (or day) and label, then its id (io/choice-layout.ts).
  const idOf = (b: (typeof ordered)[number]) => known(b.id) ?? '';
  const { lines, cut } = fitChoices(
    ctx.io.columns,
    ordered.map((b) => {
      const when = formatWhen(known(b.created), true);
      return {
        cells: [[when, dayOf(when)].map(sanitizeInline), sanitizeInline(known(b.label) ?? '')],
        id: sanitizeInline(idOf(b)),
      };
    }),
  );
  if (cut) sayCut(ctx.io, `${sb('code-backup list', siteId)} | cat`);
  return ctx.prompter.select(
    sorted ? 'Which code backup? (newest first)' : 'Which code backup?',
    ordered.map((b, i) => ({ label: lines[i], value: idOf(b), picked: sanitizeInline(idOf(b)) })),
  );
}

export async function runCodeBackupRestore(opts: OptionsOf<typeof restore>, ctx: Context): Promise<number> {
  const siteId = ctx.site(opts.site);
  if (opts.codeBackupId !== undefined && opts.codeBackupId.trim() === '') {
    throw new UsageError('The code backup id is empty; `sitebuilder code-backup list` shows the ids.');
  }
  const id = opts.codeBackupId ?? (await pickCodeBackup(ctx, siteId));
  await confirmDestructive(ctx, {
    action: `Restore code backup ${sanitizeInline(id)} on site ${siteId}`,
    consequences: opts.cancelActiveJob
      ? ['a running generation is stopped', ...CODE_RESTORE_CONSEQUENCES]
      : CODE_RESTORE_CONSEQUENCES,
  });
  const args: MethodArgs<'restore_code_backup'> = { projectId: siteId, codeBackupId: id };
  if (opts.cancelActiveJob) args.cancelActiveJob = true;
  let data: Record<string, unknown>;
  try {
    data = recordOf((await ctx.api().call('restore_code_backup', args, { signal: ctx.signal })).envelope.data);
  } catch (err) {
    if (err instanceof ApiError && err.status === 409 && /currently generating/i.test(err.serviceMessage)) {
      throw err.withSentence(
        `${err.serviceMessage} Nothing was changed; pass --cancel-active-job to stop the run and restore.`,
      );
    }
    throw err;
  }
  if (ctx.globals.json) {
    ctx.io.printJson(ownKeysThenData({ siteId, codeBackupId: id }, data));
    return 0;
  }
  ctx.io.outLine(ctx.io.prose(`Restored code backup ${sanitizeInline(id)} on site ${siteId}.`, 'stdout'));
  // The run it stopped, where the answer names one (a field the spec does not show: read, not relied on).
  const stopped = readStoppedRun(data);
  if (opts.cancelActiveJob && stopped) ctx.io.info(`The run ${sanitizeInline(stopped)} was stopped first.`);
  ctx.io.info('The chat history was deleted and queued messages were discarded.');
  sayNotPublished(ctx, siteId);
  return 0;
}

export const restore = defineCommand({
  name: 'restore',
  summary: 'Revert the agent’s files to a code backup (deletes the chat history)',
  description:
    'Reverts the files the agent wrote since the backup and deletes the files added since. It also DELETES THE WHOLE CHAT ' +
    'HISTORY of the site, for everyone in the project (irreversible), and discards queued messages unsent. No backup is ' +
    'taken first and nothing is published.\n' +
    'While the agent is generating, the service refuses; --cancel-active-job stops the run instead.\n' +
    'Asks for confirmation on a terminal; scripts pass --yes (without a terminal and without --yes: exit 5, nothing changed).',
  exitCodes:
    '0 restored, 5 needs --yes (nothing changed), 130 declined; 1 refused (a run going on: --cancel-active-job), 2 usage (nothing sent), 4 auth',
  args: [
    SITE_ARG,
    { name: 'codeBackupId', description: 'from `code-backup list` (on a terminal, leave it out to pick one)' },
  ],
  options: [{ flags: '--cancel-active-job', description: 'stop a running generation instead of refusing' }],
  examples: [
    'sitebuilder code-backup restore s_123',
    'sitebuilder code-backup restore s_123 cb_7 --yes',
    'sitebuilder code-backup restore s_123 cb_7 --cancel-active-job --yes --json',
  ],
  jsonFields:
    '{ siteId, codeBackupId } always; then the service’s data as it sends it (our emulator’s fields, for example: restored, cancelledJobId, filesReverted, filesDeleted, messagesDeleted)',
  run: (opts, ctx): Promise<number> => runCodeBackupRestore(opts, ctx),
});
