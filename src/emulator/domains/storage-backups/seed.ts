// Seeded stored files and storage backups (documented in docs/emulator.md "Backups in the
// emulator"), chosen so every case of the plan and every refusal can be tried on the demo:
// site_bakery has a backup whose restore adds, replaces, leaves, removes and skips files, a
// failed backup and one in an older format; site_portfolio has a backup still being archived;
// site_blog sits on the Free plan.
import { listStorageFiles, putStorageFile, type StorageFile, type Visibility } from '../storage-files/files.js';
import { addBackup, CURRENT_FORMAT } from './state.js';
import type { EmulatorHost } from '../../host.js';

const DAY = 86_400_000;

type Spec = [path: string, visibility: Visibility, size: number];

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
};

export const contentTypeOf = (path: string) =>
  TYPES[path.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';

/** Deterministic content of the given size: readable text for text types, filler bytes otherwise. */
export function fakeContent(path: string, size: number, version = 1): Buffer {
  const text = contentTypeOf(path).startsWith('text/');
  const unit = Buffer.from(
    text ? `${path} v${version}\n` : `\u0089FAKE:${path}:v${version}\u0000`,
    text ? 'utf8' : 'latin1',
  );
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i += unit.length) unit.copy(out, i, 0, Math.min(unit.length, size - i));
  return out;
}

function file([path, visibility, size]: Spec, at: number, version = 1): StorageFile {
  return {
    path,
    visibility,
    size,
    contentType: contentTypeOf(path),
    contentBase64: fakeContent(path, size, version).toString('base64'),
    createdAt: at,
    updatedAt: at,
  };
}

const BAKERY_NOW: Spec[] = [
  ['cms/uploads/cake-of-the-week.jpg', 'public', 2_200],
  ['docs/menu.pdf', 'public', 3_000],
  ['docs/menu.pdf', 'private', 3_000],
  ['images/hero.jpg', 'public', 5_000],
  ['images/logo.png', 'public', 1_200],
  ['images/new-banner.png', 'public', 800],
  ['orders/2026-11.csv', 'private', 400],
];

const BAKERY_WEEKLY: Spec[] = [
  ['docs/menu.pdf', 'public', 2_800],
  ['docs/price list: 2025.pdf', 'public', 1_500],
  ['images/hero.jpg', 'public', 4_000],
  ['images/logo.png', 'public', 1_200],
  ['images/old-banner.png', 'public', 900],
  ['orders/2026-10.csv', 'private', 350],
];

const PORTFOLIO_NOW: Spec[] = [
  ['gallery/coast-01.jpg', 'public', 9_000],
  ['gallery/coast-02.jpg', 'public', 8_500],
  ['about/portrait.jpg', 'public', 4_000],
  ['contracts/client-a.pdf', 'private', 2_000],
];

const BLOG_NOW: Spec[] = [
  ['posts/first-post.md', 'public', 600],
  ['images/header.png', 'public', 1_100],
];

export function seedStorageBackups(emu: EmulatorHost): void {
  const now = emu.clock.now();
  const seedFiles = (siteId: string, specs: Spec[], at: number) => {
    if (!emu.site(siteId) || listStorageFiles(emu, siteId).length > 0) return false;
    for (const s of specs) putStorageFile(emu, siteId, { ...file(s, at), createdAt: at });
    return true;
  };
  const backup = (
    siteId: string,
    label: string,
    type: 'manual' | 'scheduled',
    daysAgo: number,
    files: StorageFile[],
    extra: { failed?: boolean; format?: number; archivingMs?: number } = {},
  ) => {
    const createdAt = now - daysAgo * DAY;
    addBackup(emu, {
      siteId,
      label,
      type,
      createdAt,
      readyAt: extra.archivingMs ? now + extra.archivingMs : createdAt + 5_000,
      failed: extra.failed ?? false,
      format: extra.format ?? CURRENT_FORMAT,
      files,
    });
  };

  if (seedFiles('site_bakery', BAKERY_NOW, now - 2 * DAY)) {
    const at = (d: number) => now - d * DAY;
    backup(
      'site_bakery',
      'Legacy backup',
      'scheduled',
      400,
      BAKERY_WEEKLY.slice(3).map((s) => file(s, at(400))),
      { format: 1 },
    );
    backup(
      'site_bakery',
      'Weekly backup',
      'scheduled',
      7,
      BAKERY_WEEKLY.map((s) => file(s, at(7))),
    );
    backup('site_bakery', 'Daily backup', 'scheduled', 3, [], { failed: true });
    backup(
      'site_bakery',
      'Before the menu update',
      'manual',
      1,
      BAKERY_NOW.filter(([p]) => !p.startsWith('cms/') && !p.includes('new-banner')).map((s) => file(s, at(2))),
    );
  }
  if (seedFiles('site_portfolio', PORTFOLIO_NOW, now - 3 * DAY)) {
    backup(
      'site_portfolio',
      'Weekly backup',
      'scheduled',
      6,
      PORTFOLIO_NOW.slice(0, 3).map((s) => file(s, now - 6 * DAY)),
    );
    backup('site_portfolio', 'Manual backup', 'manual', 0, listStorageFiles(emu, 'site_portfolio'), {
      archivingMs: 60_000,
    });
  }
  if (seedFiles('site_blog', BLOG_NOW, now - 10 * DAY)) {
    backup(
      'site_blog',
      'Weekly backup',
      'scheduled',
      5,
      BLOG_NOW.map((s) => file(s, now - 10 * DAY)),
    );
  }
}
