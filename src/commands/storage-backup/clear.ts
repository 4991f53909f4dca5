// `sitebuilder storage-backup clear <site> [--backup ID]...`: deletes storage backups (all of
// the site's, or the ones named). Destructive: it confirms first, naming what is lost.
import { paginate } from '../../api/paginate.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { confirmDestructive } from '../shared/confirm.js';
import { readCleared, storageBackupId } from '../../service/backups.js';
import { recordOf } from '../../service/read.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { ownKeysThenData } from '../shared/format.js';
import type { MethodArgs } from '../../api/method-args.js';
import { SITE_ARG } from '../shared/site-arg.js';

const collect = (value: string, previous: unknown): string[] => {
  if (value.trim() === '') throw new UsageError('--backup takes a backup id; `storage-backup list` shows them.');
  return [...((previous as string[] | undefined) ?? []), value];
};

/** Only when a prompt will be shown: the backups `all` means, so the question can say how many. */
async function listBackupIds(ctx: Context, siteId: string): Promise<string[] | undefined> {
  if (ctx.globals.yes || !ctx.prompter.canPrompt()) return undefined;
  const ids: string[] = [];
  for await (const b of paginate(ctx.api(), 'list_storage_backups', { projectId: siteId }, { signal: ctx.signal }))
    if (storageBackupId(b)) ids.push(storageBackupId(b));
  return ids;
}

/**
 * What was deleted: the service's answer where it says (its fields are not shown: the usual
 * names are read), else what was asked (the ids named with --backup, or listed before asking).
 */
export function clearedOf(
  data: Record<string, unknown>,
  envelopeCount: unknown,
  asked: string[] | undefined,
): { deleted: number | null; backupIds: string[] | null } {
  const { deleted: said, ids: saidIds } = readCleared(data, envelopeCount);
  // What was asked stands in only where it agrees with the count the service gave, if any.
  const ids = saidIds ?? (asked && (said === undefined || said === asked.length) ? asked : null);
  const deleted = said ?? ids?.length ?? null;
  return { deleted, backupIds: ids };
}

export const clear = defineCommand({
  name: 'clear',
  summary: 'Delete storage backups of a site (all, or the ones named)',
  description:
    'Deletes every storage backup of the site, or only the ones named with --backup. Deleted backups can no longer be ' +
    'restored; the files in the site’s storage are not touched. Refused while a storage restore runs.\n' +
    'Asks for confirmation on a terminal; scripts pass --yes (without a terminal and without --yes: exit 5, nothing changed).',
  exitCodes: `0 deleted, 5 needs --yes (nothing deleted), 130 declined; ${SERVICE_EXITS}`,
  args: [SITE_ARG],
  options: [{ flags: '--backup <id>', description: 'delete only this backup (repeat for several)', parse: collect }],
  examples: [
    'sitebuilder storage-backup clear s_123',
    'sitebuilder storage-backup clear s_123 --backup sb_1 --backup sb_2 --yes',
  ],
  jsonFields:
    '{ siteId, deleted: how many, backupIds: which } always: from the service’s answer where it says, else what was asked (the --backup ids, or the backups listed before asking; null when neither is known); then the service’s data as it sends it',
  async run(opts, ctx) {
    const siteId = ctx.site(opts.site);
    const named = [...new Set(opts.backup ?? [])];
    const listed = named.length ? undefined : await listBackupIds(ctx, siteId);
    const total = listed?.length;
    if (total === 0) {
      ctx.io.info(`Site ${siteId} has no storage backups; nothing to delete.`);
      if (ctx.globals.json) ctx.io.printJson({ siteId, deleted: 0, backupIds: [] });
      return;
    }
    const what = named.length
      ? `${named.length} storage backup${named.length === 1 ? '' : 's'} (${named.map(sanitizeInline).join(', ')})`
      : total === undefined
        ? 'every storage backup'
        : total === 1
          ? 'the only storage backup'
          : `all ${total} storage backups`;
    await confirmDestructive(ctx, {
      action: `Delete ${what} of site ${siteId}`,
      consequences: [
        'deleted backups can no longer be restored; this cannot be undone',
        'the files in the site’s storage are not changed',
      ],
    });
    const args: MethodArgs<'clear_storage_backups'> = { projectId: siteId };
    if (named.length) args.backupIds = named;
    const { envelope } = await ctx.api().call('clear_storage_backups', args, { signal: ctx.signal });
    const data = recordOf(envelope.data);
    const { deleted, backupIds } = clearedOf(data, envelope.count, named.length ? named : listed);
    if (ctx.globals.json) return ctx.io.printJson(ownKeysThenData({ siteId, deleted, backupIds }, data));
    ctx.io.outLine(
      deleted === null
        ? `Deleted every storage backup of site ${siteId}.`
        : `Deleted ${deleted} storage backup${deleted === 1 ? '' : 's'} of site ${siteId}.`,
    );
    if (deleted === null) ctx.io.info('The service’s answer did not say how many.');
  },
});
