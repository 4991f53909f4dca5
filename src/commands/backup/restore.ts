// `sitebuilder backup restore <site> <backupId>`: replaces every page, component and setting
// with the backup's. Destructive, so it confirms first and says what is and is not touched.
import { type ChoiceRow, fitChoices } from '../../io/choice-layout.js';
import { sayCut } from '../../io/print.js';
import { itemsOf } from '../../api/paginate.js';
import type { Context } from '../../context.js';
import { ApiError, UsageError } from '../../errors.js';
import { confirmDestructive } from '../shared/confirm.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { defineCommand, type OptionsOf, SERVICE_EXITS } from '../../core/define.js';
import { preRestoreBackupId, readSiteBackup, type SiteBackup, siteBackupIds } from '../../service/backups.js';
import { known, recordOf } from '../../service/read.js';
import { dayOf, formatWhen, ownKeysThenData } from '../shared/format.js';
import { sb } from '../../io/shell.js';
import { LIVE_SITE_KEPT, sayNotPublished } from '../shared/not-published.js';
import { SITE_ARG } from '../shared/site-arg.js';

const matches = (b: unknown, id: string) => siteBackupIds(b).includes(id);

export { preRestoreBackupId };

/** The id a backup is restored by: its `_id`, else its `BackupId` (either works, as the reference states). */
const idOf = (b: SiteBackup): string => siteBackupIds(b.raw)[0] ?? '';

function describe(b: SiteBackup): string {
  const label = known(b.label);
  const when = formatWhen(known(b.created), true);
  return sanitizeInline([idOf(b), label && `“${label}”`, when && `from ${when}`].filter(Boolean).join(' '));
}

/** A backup's row in the picker (io/choice-layout.ts): its date (or day), label and type, then its id. */
function choiceRow(b: SiteBackup): ChoiceRow {
  const label = known(b.label);
  const when = formatWhen(known(b.created), true);
  return {
    cells: [
      [when, dayOf(when)].map(sanitizeInline),
      sanitizeInline(label ? `“${label}”` : ''),
      sanitizeInline(known(b.type) ?? ''),
    ],
    id: sanitizeInline(idOf(b)),
  };
}

/** With a prompt the backup is looked up (to name its date), or picked when none was given. */
async function resolveBackup(
  ctx: Context,
  siteId: string,
  given: string | undefined,
): Promise<{ id: string; text: string }> {
  if (given !== undefined && given.trim() === '')
    throw new UsageError('The backup id is empty; `sitebuilder backup list` shows the ids.');
  if (given && (ctx.globals.yes || !ctx.prompter.canPrompt())) return { id: given, text: given };
  if (!given) ctx.prompter.require('Choosing a backup', `name it: \`${sb('backup restore', siteId, 'BACKUP_ID')}\``);
  const { envelope } = await ctx.api().call('list_backups', { projectId: siteId }, { signal: ctx.signal });
  const items = itemsOf(envelope.data).map(readSiteBackup);
  if (given) {
    // Only to name its date: whether the listing is paged is not shown, so a backup missing
    // from it is not refused here; the service answers 404 for one that does not exist.
    const found = items.find((b) => matches(b.raw, given));
    return { id: given, text: found ? describe(found) : sanitizeInline(given) };
  }
  // A record without an id of either kind cannot be restored by the command: not offered.
  const offered = items.filter((b) => idOf(b));
  if (offered.length === 0) throw new UsageError(`Site ${siteId} has no backups to restore.`);
  const { lines, cut } = fitChoices(ctx.io.columns, offered.map(choiceRow), { free: 1, optional: [2] });
  if (cut) sayCut(ctx.io, `${sb('backup list', siteId)} | cat`);
  const picked = await ctx.prompter.select(
    'Which backup?',
    offered.map((b, i) => ({ label: lines[i], value: b, picked: describe(b) })),
  );
  return { id: idOf(picked), text: describe(picked) };
}

export async function runBackupRestore(opts: OptionsOf<typeof restore>, ctx: Context): Promise<number> {
  const siteId = ctx.site(opts.site);
  const backup = await resolveBackup(ctx, siteId, opts.backupId);
  await confirmDestructive(ctx, {
    action: `Restore site backup ${backup.text} on site ${siteId}`,
    consequences: [
      'every page, component and setting of the site is replaced with the backup’s',
      'a Pre-restore Backup of the current state is taken first, so this can be undone with `backup restore`',
      'stored files, database rows, environment variables, source files, the repository, custom domains and domain verification are left as they are',
      LIVE_SITE_KEPT,
    ],
  });
  let data: Record<string, unknown>;
  try {
    data = recordOf(
      (await ctx.api().call('restore_backup', { projectId: siteId, backupId: backup.id }, { signal: ctx.signal }))
        .envelope.data,
    );
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      throw err.withSentence(`Site ${siteId} has no backup ${backup.id}; \`${sb('backup list', siteId)}\` shows them.`);
    }
    throw err;
  }
  const preId = preRestoreBackupId(data, backup.id);
  if (ctx.globals.json) {
    // The command's keys win over the service's fields of the same name; the rest follow as sent.
    ctx.io.printJson(ownKeysThenData({ siteId, backupId: backup.id, preRestoreBackupId: preId }, data));
    return 0;
  }
  ctx.io.outLine(ctx.io.prose(`Restored backup ${sanitizeInline(backup.id)} on site ${siteId}.`, 'stdout'));
  ctx.io.info(
    preId
      ? `A Pre-restore Backup was taken first: undo with \`${sb('backup restore', siteId, preId)}\`.`
      : `A Pre-restore Backup was taken first, but the service’s answer did not name it: \`${sb('backup list', siteId)}\` shows it (type automatic), and \`${sb('backup restore', siteId, 'BACKUP_ID')}\` with its id undoes this.`,
  );
  sayNotPublished(ctx, siteId);
  return 0;
}

export const restore = defineCommand({
  name: 'restore',
  summary: 'Replace the site’s pages, components and settings with a backup’s',
  description:
    'Replaces every page, component and setting of the site with the backup’s. A Pre-restore Backup of the current state is ' +
    'taken first, so the restore can be undone. Stored files, database rows, environment variables, source files, the ' +
    'repository, custom domains and domain verification are left alone, and nothing is published.\n' +
    'Asks for confirmation on a terminal; scripts pass --yes (without a terminal and without --yes: exit 5, nothing changed).\n' +
    'On a terminal the backup id may be left out to pick one from the list.',
  exitCodes: `0 restored, 5 needs --yes (nothing changed), 130 declined; ${SERVICE_EXITS}`,
  args: [SITE_ARG, { name: 'backupId', description: 'the _id or BackupId from `backup list`' }],
  examples: [
    'sitebuilder backup restore s_123',
    'sitebuilder backup restore s_123 bk_42 --yes',
    'sitebuilder backup restore s_123 bk_42 --yes --json',
  ],
  jsonFields:
    '{ siteId, backupId, preRestoreBackupId: the undo backup’s id, null when the answer names none } always; then the service’s data as it sends it (our emulator’s fields, for example: restored, preRestoreBackup)',
  run: (opts, ctx): Promise<number> => runBackupRestore(opts, ctx),
});
