// docs/real-service.md states how the CLI reads the service's answers and what its decisions rest
// on; every statement of its own sections links the test that checks it, and this test checks
// the links: the file exists and holds a test of that title. The readers' table is the model's
// catalogue (`npm run docs:model` writes it), and every file it names exists.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueTable } from '../../src/service/catalogue.js';

const ROOT = join(import.meta.dirname, '../..');
const doc = readFileSync(join(ROOT, 'docs/real-service.md'), 'utf8');

/** The sections whose every item (a list item, a table row) must link a test. */
const CHECKED = [
  'The rule',
  'The service model',
  'Unread is said',
  'What waits on a site',
  'One reply per question',
  'Cancelling',
  '`sitebuilder doctor`',
];

function section(title: string): string {
  const start = doc.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/real-service.md has no section ${title}`);
  const next = doc.indexOf('\n## ', start + 4);
  return doc.slice(start, next < 0 ? undefined : next);
}

const LINK = /\[test\]\(\.\.\/(test\/[^ )]+) "((?:[^"\\]|\\.)*)"\)/g;

describe('docs/real-service.md', () => {
  it('every statement links a test that exists', () => {
    const links = [...doc.matchAll(LINK)];
    expect(links.length).toBeGreaterThan(60);
    const broken = links.flatMap(([, file, raw]) => {
      const title = raw.replace(/\\"/g, '"');
      const path = join(ROOT, file);
      if (!existsSync(path)) return [`${file}: no such file`];
      return readFileSync(path, 'utf8').includes(title) ? [] : [`${file}: no test "${title}"`];
    });
    expect(broken).toEqual([]);
  });

  it('every item of its own sections links its test', () => {
    const bare: string[] = [];
    for (const title of CHECKED) {
      const body = section(title).replace(/<!-- model-catalogue:start -->[\s\S]*<!-- model-catalogue:end -->/, '');
      // Items: numbered or bulleted (with their wrapped lines), and table rows past the header.
      const items = body.split(/\n(?=\d+\. |- |\|)|\n\n/).map((s) => s.trim());
      for (const item of items) {
        const row = item.startsWith('|');
        const listed = /^(\d+\.|-) /.test(item);
        if (!row && !listed) continue;
        if (row && (/^\|\s*-/.test(item) || /^\| (file|where|command|call|the site|resource|\||\s)/.test(item)))
          continue;
        if (row && /^\| `src\/service\//.test(item)) continue;
        if (!item.includes('[test](')) bare.push(`${title}: ${item.slice(0, 90)}`);
      }
    }
    expect(bare).toEqual([]);
  });

  it("the readers' table is the catalogue's (`npm run docs:model`)", () => {
    const start = doc.indexOf('<!-- model-catalogue:start -->');
    const end = doc.indexOf('<!-- model-catalogue:end -->');
    expect(doc.slice(start + '<!-- model-catalogue:start -->'.length, end).trim()).toBe(catalogueTable());
  });

  it('names only files that exist', () => {
    const named = [...doc.matchAll(/`(src\/[\w/.-]+\.ts)`/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((f) => !existsSync(join(ROOT, f)))).toEqual([]);
  });
});
