// Control routes for stored files and storage backups (under /_emulator/), so tests and demos
// can change the storage between a plan and its start, or make backups in any state:
//   GET    sites/:siteId/storage-files                       the stored files (no content)
//   POST   sites/:siteId/storage-files {path, visibility?, content? | contentBase64? | size?}
//   DELETE sites/:siteId/storage-files?path=P&visibility=V
//   GET    sites/:siteId/storage-backups                     backups with their file lists
//   POST   sites/:siteId/storage-backups {label?, status?: ready|archiving|failed, format?, daysAgo?}
//   GET    storage-backups                                   timings
//   POST   storage-backups {archiveBaseMs?, restoreBaseMs?}
import { contentTypeOf, fakeContent } from './seed.js';
import { addBackup, backupsOf, CURRENT_FORMAT, storageBackupsSlice } from './state.js';
import { EmulatorRefusal } from '../../refusal.js';
import { deleteStorageFile, listStorageFiles, putStorageFile, type Visibility } from '../storage-files/files.js';
import type { ControlRoute } from '../../types.js';
import { backupView } from './views.js';
import type { EmulatorHost } from '../../host.js';

function bad(message: string): never {
  throw new EmulatorRefusal(400, message);
}

function visibilityOf(v: unknown): Visibility {
  if (v === undefined || v === null || v === '') return 'public';
  if (v !== 'public' && v !== 'private') bad('`visibility` must be public or private.');
  return v as Visibility;
}

const fileView =
  (emu: EmulatorHost) =>
  (f: { path: string; visibility: Visibility; size: number; contentType: string; updatedAt: number }) => ({
    path: f.path,
    visibility: f.visibility,
    size: f.size,
    contentType: f.contentType,
    updatedAt: emu.iso(f.updatedAt),
  });

const wholeMs = (v: unknown, what: string) => {
  if (!(Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 86_400_000))
    bad(`\`${what}\` must be a whole number of ms from 0 to 86400000.`);
  return v as number;
};

export const storageBackupsControl: ControlRoute[] = [
  {
    verb: 'GET',
    path: 'sites/:siteId/storage-files',
    run: ({ params, emu }) => listStorageFiles(emu, emu.siteOr404(params.siteId)._id).map(fileView(emu)),
  },
  {
    verb: 'POST',
    path: 'sites/:siteId/storage-files',
    run: ({ params, body, emu }) => {
      const site = emu.siteOr404(params.siteId);
      if (typeof body.path !== 'string' || !body.path) bad('`path` is required.');
      let bytes: Buffer;
      if (typeof body.contentBase64 === 'string') bytes = Buffer.from(body.contentBase64, 'base64');
      else if (typeof body.content === 'string') bytes = Buffer.from(body.content, 'utf8');
      else if (typeof body.size === 'number' && Number.isInteger(body.size) && body.size >= 0)
        bytes = fakeContent(body.path, body.size, 2 + Math.floor(emu.clock.now() % 1000));
      else bytes = bad('Send `content` (text), `contentBase64`, or `size` (filler bytes).');
      const f = putStorageFile(emu, site._id, {
        path: body.path,
        visibility: visibilityOf(body.visibility),
        contentType: typeof body.contentType === 'string' ? body.contentType : contentTypeOf(body.path),
        contentBase64: bytes.toString('base64'),
      });
      return fileView(emu)(f);
    },
  },
  {
    verb: 'DELETE',
    path: 'sites/:siteId/storage-files',
    run: ({ params, query, emu }) => {
      const site = emu.siteOr404(params.siteId);
      const path = query.get('path') ?? bad('`path` is required (query).');
      return { deleted: deleteStorageFile(emu, site._id, path, visibilityOf(query.get('visibility') ?? undefined)) };
    },
  },
  {
    verb: 'GET',
    path: 'sites/:siteId/storage-backups',
    run: ({ params, emu }) =>
      backupsOf(emu, emu.siteOr404(params.siteId)._id).map((b) => ({
        ...backupView(emu, b),
        fileList: b.files.map(fileView(emu)),
      })),
  },
  {
    verb: 'POST',
    path: 'sites/:siteId/storage-backups',
    run: ({ params, body, emu }) => {
      const site = emu.siteOr404(params.siteId);
      const status = body.status ?? 'ready';
      if (!['ready', 'archiving', 'failed'].includes(status as string))
        bad('`status` must be ready, archiving or failed.');
      const now = emu.clock.now();
      const createdAt = now - (typeof body.daysAgo === 'number' ? body.daysAgo : 0) * 86_400_000;
      const b = addBackup(emu, {
        siteId: site._id,
        label: typeof body.label === 'string' ? body.label : 'Manual backup',
        type: 'manual',
        createdAt,
        readyAt: status === 'archiving' ? now + ((body.archivingMs as number | undefined) ?? 60_000) : createdAt,
        failed: status === 'failed',
        format: Number.isInteger(body.format) ? (body.format as number) : CURRENT_FORMAT,
        files: status === 'failed' ? [] : listStorageFiles(emu, site._id),
      });
      return backupView(emu, b);
    },
  },
  {
    verb: 'GET',
    path: 'storage-backups',
    run: ({ emu }) => {
      const s = storageBackupsSlice(emu);
      return { archiveBaseMs: s.archiveBaseMs, restoreBaseMs: s.restoreBaseMs };
    },
  },
  {
    verb: 'POST',
    path: 'storage-backups',
    run: ({ body, emu }) => {
      const s = storageBackupsSlice(emu);
      if (body.archiveBaseMs !== undefined) s.archiveBaseMs = wholeMs(body.archiveBaseMs, 'archiveBaseMs');
      if (body.restoreBaseMs !== undefined) s.restoreBaseMs = wholeMs(body.restoreBaseMs, 'restoreBaseMs');
      return { archiveBaseMs: s.archiveBaseMs, restoreBaseMs: s.restoreBaseMs };
    },
  },
];
