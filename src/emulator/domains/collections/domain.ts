// Collections (the site's CMS tables) and secrets: list_rows (offset and count, 50 a page),
// export_collection (every row as JSON, or CSV text) and set_secret. Our choices where the service
// leaves it open (docs/emulator.md): a secret's name is upper case (STRIPE_KEY), its value is
// stored as a hash and never sent back.
import { createHash } from 'node:crypto';
import type { SiteRecord } from '../../state.js';
import { defineDomain } from '../../types.js';
import { offsetPage } from '../shared/listing.js';
import { between, DAY, pickOne, seededRandom } from '../shared/sample-data.js';
import type { CallContext, EmulatorHost, HandlerResult } from '../../host.js';

type Row = Record<string, string | number | boolean | null> & { _id: string };

export interface CollectionRecord {
  collectionId: string;
  siteId: string;
  name: string;
  fields: string[];
  rows: Row[];
}

export interface SecretRecord {
  siteId: string;
  name: string;
  valueSha256: string;
  createdAt: number;
  updatedAt: number;
}

export interface CollectionsSlice {
  collections: CollectionRecord[];
  secrets: SecretRecord[];
}

const NAME = 'collections';
const slice = (emu: EmulatorHost) => emu.slice<CollectionsSlice>(NAME);
const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,127}$/;

function collectionOf(call: CallContext, site: SiteRecord): CollectionRecord {
  const c = slice(call.emu).collections.find((x) => x.siteId === site._id && x.collectionId === call.args.collectionId);
  if (!c)
    call.refuse(404, `No collection has the id "${call.args.collectionId}" on this site.`, {
      reason: 'not-found',
      collectionId: call.args.collectionId,
    });
  return c!;
}

function listRows(call: CallContext): HandlerResult {
  const c = collectionOf(call, call.requireSite(call.args.projectId));
  return offsetPage(c.rows, call.args, 50, 'rows');
}

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

function exportCollection(call: CallContext): HandlerResult {
  const c = collectionOf(call, call.requireSite(call.args.projectId));
  const format = call.args.format ?? 'json';
  const base = {
    collectionId: c.collectionId,
    name: c.name,
    format,
    rowCount: c.rows.length,
    fields: ['_id', ...c.fields],
  };
  if (format === 'json') return { data: { ...base, rows: c.rows }, message: `${c.rows.length} rows of ${c.name}.` };
  const lines = [
    base.fields.map(csvCell).join(','),
    ...c.rows.map((r) => base.fields.map((f) => csvCell(r[f])).join(',')),
  ];
  return {
    data: { ...base, contentType: 'text/csv', content: `${lines.join('\r\n')}\r\n` },
    message: `${c.rows.length} rows of ${c.name} as CSV.`,
  };
}

function setSecret(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const { name, value } = call.args as { name: string; value: string };
  if (!SECRET_NAME.test(name)) {
    call.refuse(
      400,
      `The argument \`name\` must be upper-case letters, digits and underscores, starting with a letter (like STRIPE_KEY), not "${name}".`,
    );
  }
  const now = call.now();
  const secrets = slice(call.emu).secrets;
  const existing = secrets.find((s) => s.siteId === site._id && s.name === name);
  const valueSha256 = createHash('sha256').update(value).digest('hex');
  if (existing) Object.assign(existing, { valueSha256, updatedAt: now });
  else secrets.push({ siteId: site._id, name, valueSha256, createdAt: now, updatedAt: now });
  return {
    data: { name, created: !existing, updatedAt: call.emu.iso(now) },
    message: `${existing ? 'Updated' : 'Created'} the secret ${name}; its value is never shown again. It applies from the next publish.`,
  };
}

function seed(emu: EmulatorHost, s: CollectionsSlice): void {
  if (!emu.site('site_bakery')) return;
  const random = seededRandom('collections');
  const now = emu.clock.now();
  const items = [
    'Sourdough loaf',
    'Croissant',
    'Pain au chocolat',
    'Cinnamon bun',
    'Rye bread',
    'Baguette',
    'Fruit tart',
    'Brioche',
  ];
  const menu: Row[] = Array.from({ length: 64 }, (_, i) => ({
    _id: `row_menu_${String(i + 1).padStart(3, '0')}`,
    name: `${pickOne(random, items)} #${i + 1}`,
    price: between(random, 150, 1200) / 100,
    category: pickOne(random, ['bread', 'pastry', 'cake']),
    available: random() > 0.2,
  }));
  const orders: Row[] = Array.from({ length: 130 }, (_, i) => ({
    _id: `row_order_${String(i + 1).padStart(3, '0')}`,
    customer: pickOne(random, ['Ana', 'Ben', 'Chloé', 'Dev', 'Eun-ji', 'Femi']),
    total: between(random, 300, 9000) / 100,
    pickupAt: new Date(now - between(random, 0, 60) * DAY).toISOString(),
    note: random() < 0.2 ? 'Please slice, "thin", thanks' : null,
  }));
  s.collections.push(
    {
      collectionId: 'col_menu',
      siteId: 'site_bakery',
      name: 'Menu',
      fields: ['name', 'price', 'category', 'available'],
      rows: menu,
    },
    {
      collectionId: 'col_orders',
      siteId: 'site_bakery',
      name: 'Orders',
      fields: ['customer', 'total', 'pickupAt', 'note'],
      rows: orders,
    },
  );
}

export const collectionsDomain = defineDomain<CollectionsSlice>({
  name: NAME,
  init: (): CollectionsSlice => ({ collections: [], secrets: [] }),
  seed,
  handlers: { list_rows: listRows, export_collection: exportCollection, set_secret: setSecret },
});
