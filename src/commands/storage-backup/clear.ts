// `sitebuilder storage-backup clear <site> [--backup ID]...`: deletes storage backups (all of
// the site's, or the ones named). Destructive: it confirms first, naming what is lost.
import { paginate } from '../../api/paginate.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { confirmDestructive } from '../confirm.js';
import { asRecord, pick } from '../../io/records.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { defineCommand } from '../../core/define.js';
import { storageBackupId } from './format.js';

export interface StorageBackupClearOptions {
  site?: string;
  backup?: string[];
}

const collect = (value: string, previous: unknown): string[] => {
  if (value.trim() === '') throw new UsageError('--backup takes a backup id; `storage-backup list` shows them.');
  return [...((previous as string[] | undefined) ?? []), value];
};

/** Only when a prompt will be shown: how many backups `all` means, so the question can say it. */
async function countBackups(ctx: Context, siteId: string): Promise<number | undefined> {
  if (ctx.globals.yes || !ctx.prompter.canPrompt()) return undefined;
  let n = 0;
  for await (const b of paginate(ctx.api(), 'list_storage_backups', { projectId: siteId }, { signal: ctx.signal }))
    if (storageBackupId(b)) n++;
  return n;
}

export const clear = defineCommand<StorageBackupClearOptions>({
  name: 'clear',
  summary: 'Delete storage backups of a site (all, or the ones named)',
  description:
    'Deletes every storage backup of the site, or only the ones named with --backup. Deleted backups can no longer be ' +
    'restored; the files in the site’s storage are not touched. Refused while a storage restore runs.\n' +
    'Asks for confirmation on a terminal; scripts pass --yes (without a terminal and without --yes: exit 5, nothing changed).',
  args: [{ name: 'site', description: 'site id (default: `site use` or SITEBUILDER_SITE)' }],
  options: [{ flags: '--backup <id>', description: 'delete only this backup (repeat for several)', parse: collect }],
  examples: [
    'sitebuilder storage-backup clear s_123',
    'sitebuilder storage-backup clear s_123 --backup sb_1 --backup sb_2 --yes',
  ],
  jsonFields: '{ siteId, deleted, backupIds } plus the fields of the service’s answer',
  async run(opts, ctx) {
    const siteId = ctx.site(opts.site);
    const named = [...new Set(opts.backup ?? [])];
    const total = named.length ? undefined : await countBackups(ctx, siteId);
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
    const args: Record<string, unknown> = { projectId: siteId };
    if (named.length) args.backupIds = named;
    const { envelope } = await ctx.api().call('clear_storage_backups', args, { signal: ctx.signal });
    const data = asRecord(envelope.data);
    const deleted = pick(data, 'deleted', 'count') ?? envelope.count;
    if (ctx.globals.json) return ctx.io.printJson({ siteId, deleted: deleted ?? null, ...data });
    ctx.io.outLine(`Deleted ${deleted ?? 'the'} storage backup${deleted === 1 ? '' : 's'} of site ${siteId}.`);
  },
});
