// The scripting contract: every command's --json output is documented, in its --help
// (jsonFields) and in the JSON reference of docs/scripting.md (refreshed by `npm run docs:json`).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonReferenceRows } from '../../scripts/json-reference-table.js';
import { loadCommands } from '../../src/core/nouns.js';

const doc = readFileSync(new URL('../../docs/scripting.md', import.meta.url), 'utf8');
const section = doc.slice(doc.indexOf('<!-- json-reference:start -->'), doc.indexOf('<!-- json-reference:end -->'));

describe('JSON reference', () => {
  let rows: ReturnType<typeof jsonReferenceRows> = [];
  beforeAll(async () => {
    rows = jsonReferenceRows(await loadCommands());
  });

  it('covers the whole command tree', () => {
    expect(rows.map((r) => r.command)).toEqual(
      expect.arrayContaining(['publish', 'publish status', 'publish logs', 'upload']),
    );
    expect(rows.length).toBeGreaterThan(20);
  });

  it('every command documents its --json output in its help', () => {
    expect(rows.filter((r) => !r.fields.trim()).map((r) => r.command)).toEqual([]);
  });

  it('docs/scripting.md lists every command (run `npm run docs:json` after adding one)', () => {
    expect(section.length).toBeGreaterThan(0);
    const missing = rows.filter((r) => !section.includes(`| \`${r.command}\` |`)).map((r) => r.command);
    expect(missing).toEqual([]);
  });
});
