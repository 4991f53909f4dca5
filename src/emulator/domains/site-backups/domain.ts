// Site backups: list_backups and restore_backup. A site's pages, components and settings are
// kept here as a small record (the editor's structure; the agent's source files are the chat
// domain's and are not touched). restore_backup replaces that record with the backup's after
// taking an automatic "Pre-restore Backup"; stored files, source files, the repository,
// custom domains and the published version stay as they are.
// Control (under /_emulator/): GET/POST sites/:siteId/content, POST sites/:siteId/backups.
import { assertCodeHostingAllows } from '../code-hosting/domain.js';
import { EmulatorRefusal } from '../../refusal.js';
import type { SiteRecord } from '../../state.js';
import { defineDomain, type ControlRoute } from '../../types.js';
import type { CallContext, EmulatorHost, HandlerResult } from '../../host.js';

export interface SiteContent {
  pages: Array<{ path: string; title: string }>;
  components: string[];
  settings: Record<string, string | null>;
}

export interface SiteBackupRecord {
  _id: string;
  BackupId: string;
  siteId: string;
  /** `automatic` for the backup taken before a restore (as in the service); `daily` and `manual` otherwise. */
  type: 'automatic' | 'daily' | 'manual';
  label: string;
  createdAt: number;
  content: SiteContent;
}

interface SiteBackupsSlice {
  content: Record<string, SiteContent>;
  backups: Record<string, SiteBackupRecord[]>;
}

export const SITE_BACKUPS_DOMAIN = 'siteBackups';
const DAY = 86_400_000;

const slice = (emu: EmulatorHost) => emu.slice<SiteBackupsSlice>(SITE_BACKUPS_DOMAIN);
const clone = (c: SiteContent): SiteContent => JSON.parse(JSON.stringify(c));

function defaultContent(site: SiteRecord): SiteContent {
  return {
    pages: [{ path: '/', title: 'Home' }],
    components: ['Header', 'Footer'],
    settings: { title: site.name, language: 'en', theme: 'light', favicon: null },
  };
}

export function siteContent(emu: EmulatorHost, site: SiteRecord): SiteContent {
  return (slice(emu).content[site._id] ??= defaultContent(site));
}

export function takeSiteBackup(
  emu: EmulatorHost,
  site: SiteRecord,
  type: SiteBackupRecord['type'],
  label: string,
  at = emu.clock.now(),
  content = siteContent(emu, site),
): SiteBackupRecord {
  // Both ids have forms of their own, the same in every shapes (docs/emulator.md "Shapes").
  const n = String(emu.newNumber('bkp')).padStart(6, '0');
  // Two ids, as the service has them: a database-style _id and a readable BackupId; either restores.
  const record: SiteBackupRecord = {
    _id: `65f0${n.padStart(20, '0')}`,
    BackupId: `BK-${n}`,
    siteId: site._id,
    type,
    label,
    createdAt: at,
    content: clone(content),
  };
  (slice(emu).backups[site._id] ??= []).push(record);
  return record;
}

function backupView(emu: EmulatorHost, b: SiteBackupRecord) {
  return {
    _id: b._id,
    BackupId: b.BackupId,
    type: b.type,
    label: b.label,
    createdAt: emu.iso(b.createdAt),
    pages: b.content.pages.length,
    components: b.content.components.length,
  };
}

function listBackups(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const items = [...(slice(call.emu).backups[site._id] ?? [])].reverse().map((b) => backupView(call.emu, b));
  return { data: { items }, count: items.length, message: `${items.length} backups.` };
}

function restoreBackup(call: CallContext): HandlerResult {
  const { emu } = call;
  const site = call.requireSite(call.args.projectId);
  assertCodeHostingAllows(emu, site);
  const id = call.args.backupId as string;
  const backup = (slice(emu).backups[site._id] ?? []).find((b) => b._id === id || b.BackupId === id);
  if (!backup)
    call.refuse(404, `No backup has the id "${id}" on this site; list_backups lists them.`, {
      reason: 'not-found',
      backupId: id,
    });
  const pre = takeSiteBackup(emu, site, 'automatic', 'Pre-restore Backup');
  slice(emu).content[site._id] = clone(backup!.content);
  return {
    data: {
      restored: true,
      backupId: backup!._id,
      BackupId: backup!.BackupId,
      preRestoreBackup: backupView(emu, pre),
      published: false,
    },
    message:
      'The pages, components and settings were restored; a Pre-restore Backup was taken first. Publish to make the restored version live.',
  };
}

function seed(emu: EmulatorHost): void {
  const now = emu.clock.now();
  for (const site of emu.state.core.sites) {
    const content = siteContent(emu, site);
    if (site._id === 'site_bakery') {
      const older: SiteContent = {
        pages: [
          { path: '/', title: 'Home' },
          { path: '/menu', title: 'Menu' },
        ],
        components: ['Header', 'Footer'],
        settings: { ...content.settings, theme: 'classic' },
      };
      takeSiteBackup(emu, site, 'manual', 'Before the menu redesign', now - 5 * DAY, older);
      content.pages.push({ path: '/menu', title: 'Menu' }, { path: '/hours', title: 'Opening hours' });
      content.components.push('MenuCard');
    }
    takeSiteBackup(emu, site, 'daily', 'Daily backup', now - DAY);
  }
}

const control: ControlRoute[] = [
  {
    verb: 'GET',
    path: 'sites/:siteId/content',
    run: ({ params, emu }) => siteContent(emu, emu.siteOr404(params.siteId)),
  },
  {
    verb: 'POST',
    path: 'sites/:siteId/content',
    run: ({ params, body, emu }) => {
      const site = emu.siteOr404(params.siteId);
      // Checked whole before the content changes: a page is { path, title? } or just its path.
      const pages = Array.isArray(body.pages)
        ? body.pages.map((p: unknown) => {
            const page = (p !== null && typeof p === 'object' ? p : { path: p }) as { path?: unknown; title?: unknown };
            if (typeof page.path !== 'string' || (page.title !== undefined && typeof page.title !== 'string'))
              throw new EmulatorRefusal(
                400,
                'pages must be a list of paths, or of { path, title? } with text in them.',
              );
            return { path: page.path, title: page.title ?? page.path };
          })
        : undefined;
      const content = siteContent(emu, site);
      if (pages) content.pages = pages;
      if (Array.isArray(body.components)) content.components = body.components.map(String);
      if (body.settings && typeof body.settings === 'object') Object.assign(content.settings, body.settings);
      return content;
    },
  },
  {
    verb: 'POST',
    path: 'sites/:siteId/backups',
    run: ({ params, body, emu }) =>
      backupView(
        emu,
        takeSiteBackup(
          emu,
          emu.siteOr404(params.siteId),
          'manual',
          typeof body.label === 'string' ? body.label : 'Manual backup',
        ),
      ),
  },
];

export const siteBackupsDomain = defineDomain<SiteBackupsSlice>({
  name: SITE_BACKUPS_DOMAIN,
  init: (): SiteBackupsSlice => ({ content: {}, backups: {} }),
  seed,
  handlers: { list_backups: listBackups, restore_backup: restoreBackup },
  control,
});
