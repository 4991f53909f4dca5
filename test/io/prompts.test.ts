// The pure parts of the prompts work: keys typed ahead turned into text, the changes between two
// storage restore plans, the one shell-quoting helper, and a refusal that names a method pointing
// to the command instead.
import { describe, expect, it } from 'vitest';
import { refusalSentence } from '../../src/api/errors.js';
import { planChanges, readPlan } from '../../src/commands/storage-restore/plan-view.js';
import { backupChoiceLines } from '../../src/commands/storage-restore/pick-backup.js';
import { layoutChoices } from '../../src/io/choice-layout.js';
import { displayWidth } from '../../src/io/width.js';
import { TypedText } from '../../src/io/keyguard.js';
import { flag, sb, shellQuote } from '../../src/io/shell.js';
import { isPlaceholder, refusePlaceholder } from '../../src/core/placeholders.js';
import { editDistance } from '../../src/commands/chat/site-suggest.js';

const typed = (...chunks: string[]) => {
  const t = new TypedText();
  for (const c of chunks) t.feed(Buffer.from(c));
  return t.take();
};

describe('keys typed ahead, as text', () => {
  it('keeps what was typed, as typed: Backspace, Ctrl-U and Ctrl-W edit it; Enter joins lines with a space', () => {
    expect(typed('also a blog page\r2\r')).toBe('also a blog page 2');
    expect(typed('helo\x7flo')).toBe('hello');
    expect(typed('wrong\x15right')).toBe('right');
    expect(typed('add a page\x17blog')).toBe('add a blog');
  });

  it('drops arrows, function keys and other controls, whatever the chunks', () => {
    expect(typed('a\x1b[Ab\x1bOPc\x1b[15~d\x01\x07e')).toBe('abcde');
    expect(typed('x\x1b', '[', 'B', 'y')).toBe('xy');
  });

  it('decodes a character split across chunks, and is empty once taken', () => {
    const t = new TypedText();
    const bytes = Buffer.from('café');
    t.feed(bytes.subarray(0, 4));
    t.feed(bytes.subarray(4));
    expect(t.take()).toBe('café');
    expect(t.take()).toBe('');
  });
});

describe('the stale storage plan: what changed', () => {
  const before = readPlan({
    filesAdded: 2,
    filesRemoved: 2,
    bytesRemoved: 3000,
    removedFiles: [
      { path: 'docs/menu.pdf', visibility: 'private', size: 2900 },
      { path: 'orders/old.csv', visibility: 'private', size: 100 },
    ],
  });

  it('marks the rows that changed, were added and are gone; the same plan has none', () => {
    const after = readPlan({
      filesAdded: 2,
      filesRemoved: 2,
      bytesRemoved: 1210,
      removedFiles: [
        { path: 'docs/menu.pdf', visibility: 'private', size: 10 },
        { path: 'images/new.png', visibility: 'public', size: 1200 },
      ],
    });
    expect(planChanges(before, after)).toEqual([
      { what: 'Bytes removed', before: '2.9 KiB', after: '1.2 KiB' },
      { what: 'deleted: docs/menu.pdf (private)', before: '2.8 KiB', after: '10 B' },
      { what: 'deleted: images/new.png (public)', before: undefined, after: '1.2 KiB' },
      { what: 'deleted: orders/old.csv (private)', before: '100 B' },
    ]);
    expect(planChanges(before, before)).toEqual([]);
  });
});

describe('commands to copy', () => {
  it('quote every value for a POSIX shell, only when needed; our words stay as they are', () => {
    expect(shellQuote('site_bakery')).toBe('site_bakery');
    expect(shellQuote('Add a page')).toBe("'Add a page'");
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
    expect(sb('chat', 'site_1', 'Add a contact page')).toBe("sitebuilder chat site_1 'Add a contact page'");
    expect(sb('storage-restore status', 's;rm -rf', 'srs_1')).toBe(
      "sitebuilder storage-restore status 's;rm -rf' srs_1",
    );
  });

  it('a value that begins with - never becomes an option: flags joined with =, arguments after --', () => {
    const evil = '--base-url=https://evil.example';
    expect(sb('job watch', 'site_bakery', 'job_1')).toBe('sitebuilder job watch site_bakery job_1');
    expect(sb('job watch', 'site_bakery', evil)).toBe(`sitebuilder job watch -- site_bakery ${evil}`);
    expect(sb('chat', evil, flag('--approve'), flag('--job', 'job_1'))).toBe(
      `sitebuilder chat --approve --job job_1 -- ${evil}`,
    );
    expect(sb('chat', 'site_1', flag('--job', evil))).toBe(`sitebuilder chat site_1 --job=${evil}`);
    expect(sb('chat', 'site_1', flag('--answer', '-x y'))).toBe("sitebuilder chat site_1 --answer='-x y'");
    // `-` alone is standard input, an argument: left as it is.
    expect(sb('publish', '-')).toBe('sitebuilder publish -');
    expect(sb('storage-restore status', 's_1', 'rs_1', flag('--wait'))).toBe(
      'sitebuilder storage-restore status s_1 rs_1 --wait',
    );
  });

  it('a placeholder is a placeholder only alone: …, ..., <text>, N, TEXT, JOB, SITE, ID, any _ID', () => {
    for (const p of [
      '…',
      '...',
      ' … ',
      '<text>',
      '<its id>',
      'N',
      'TEXT',
      'JOB',
      'SITE',
      'ID',
      'CODE_BACKUP_ID',
      'FILE...',
    ])
      expect(isPlaceholder(p), p).toBe(true);
    for (const v of ['site_bakery', 'job_000012', 'Add a page…', 'No', 'n', 'Text', 'A <b> tag', 'JOBS', 'IDEA', '2'])
      expect(isPlaceholder(v), v).toBe(false);
    expect(() => refusePlaceholder('--answer', '…')).toThrow(
      '"…" in --answer is a placeholder from a printed command: put your answer in its place. Nothing was sent.',
    );
    expect(() => refusePlaceholder('site', 'SITE', 'site')).toThrow(
      '"SITE" as the site is a placeholder from a printed command: put a site id in its place.',
    );
  });

  it('did you mean: the closest ids by edit distance, a swap counting one', () => {
    expect(editDistance('site_bakry', 'site_bakery')).toBe(1);
    expect(editDistance('site_bakeyr', 'site_bakery')).toBe(1);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('a refusal pointing to a method points to the command that does it, with the site', () => {
    const sentence = refusalSentence({
      status: 404,
      method: 'restore_storage_backup',
      message: 'No storage backup has the id "x" on this site; list_storage_backups lists them.',
      requestId: 'req_1',
      site: 'site_bakery',
    });
    expect(sentence).toBe(
      'No storage backup has the id "x" on this site; `sitebuilder storage-backup list site_bakery` lists them. (request req_1)',
    );
    // A method named for another reason (the api command's own refusals) is left as it is.
    expect(refusalSentence({ status: 400, method: 'list_sites', message: 'list_sites needs workspaceId.' })).toContain(
      'list_sites needs workspaceId.',
    );
  });
});

describe('picker lines at the width', () => {
  const backup = (id: string, label: string, size: number, files: number, day: number) => ({
    backupId: id,
    createdAt: `2026-11-${String(day).padStart(2, '0')}T22:58:00Z`,
    size,
    fileCount: files,
    label,
  });
  const backups = (ids: string[]) => [
    backup(ids[0], 'Before the menu update', 12_288, 5, 21),
    backup(ids[1], 'Weekly backup', 1_048_576 * 3, 120, 14),
    { ...backup(ids[2], 'Daily backup', 0, 0, 7), status: 'failed' },
  ];
  const short = ['sbk_000004', 'sbk_000002', 'sbk_000003'];
  const uuid = [
    'b2da0538-fdb4-473e-88a4-c2f39a035e5f',
    'a01217b5-9776-4e7e-9ac8-903a46df7309',
    'ee4c54fc-3d3b-4f8d-8588-380bcfc826a0',
  ];

  it('aligns the rows in columns, the label first and the id last', () => {
    const at100 = backupChoiceLines(100, backups(short));
    expect(at100[0]).toMatch(/^2026-11-21 \d\d:\d\d UTC {2}12 KiB {3}5 files {4}Before the menu update {2}sbk_000004$/);
    // Every row's cells start in the same columns.
    const starts = (l: string) => [...l.matchAll(/(?:^|(?<= {2}))\S/g)].map((m) => m.index).join(',');
    expect(new Set(at100.map(starts)).size).toBe(1);
    expect(at100[2]).toContain('(failed) Daily backup');
    const at80 = backupChoiceLines(80, backups(short));
    expect(new Set(at80.map(starts)).size).toBe(1);
    expect(new Set(backupChoiceLines(60, backups(short)).map(starts)).size).toBe(1);
  });

  it('at 40 columns keeps the day and the label before the id, whole', () => {
    const at40 = backupChoiceLines(40, backups(short));
    expect(at40[0]).toMatch(/^2026-11-21 {2}Before the m… {2}sbk_000004$/);
    for (const l of at40) expect(displayWidth(l)).toBeLessThanOrEqual(37);
    // An id too long to stand beside a label goes; the label stays (the picked line names the id).
    const long = backupChoiceLines(40, backups(uuid));
    expect(long[0]).toBe('2026-11-21  Before the menu update');
    for (const l of long) expect(l).not.toMatch(/[0-9a-f]{8}-/);
  });

  it('holds at every width: fits, the label first, the id whole or not at all', () => {
    for (const ids of [short, uuid])
      for (let cols = 20; cols <= 140; cols++) {
        const lines = backupChoiceLines(cols, backups(ids));
        const withId = lines.filter((l, i) => l.endsWith(ids[i]));
        expect([0, lines.length], `${cols}`).toContain(withId.length);
        lines.forEach((l, i) => {
          expect(displayWidth(l), `${cols}: ${l}`).toBeLessThanOrEqual(Math.max(1, cols - 3));
          expect(l.startsWith('2026-11-'), `${cols}: ${l}`).toBe(true);
          if (!l.endsWith(ids[i])) expect(l).not.toContain(ids[i].slice(0, 6));
        });
      }
  });

  it('lays out names and ids as the site picker does: a name may be empty', () => {
    const rows = [
      { cells: ['Sunrise Bakery', '(Demo Studio)'], id: 'site_bakery' },
      { cells: ['', '(Side Projects)'], id: 'site_untitled' },
    ];
    expect(layoutChoices(80, rows, { free: 0, optional: [1] })).toEqual([
      'Sunrise Bakery  (Demo Studio)    site_bakery',
      '                (Side Projects)  site_untitled',
    ]);
    expect(layoutChoices(30, rows, { free: 0, optional: [1] })).toEqual([
      'Sunrise Bak…  site_bakery',
      '              site_untitled',
    ]);
  });
});
