// Fitting the terminal: tables at several widths (free text cut first, ids never, blocks below
// the minimum), prose wrapped at word boundaries with commands kept whole, and piped output
// unchanged whatever the width.
import { describe, expect, it } from 'vitest';
import { createTestIO } from '../../src/io/io.js';
import { columnWidths, layoutTable } from '../../src/io/layout.js';
import { fitChoices } from '../../src/io/choice-layout.js';
import { printFields, printTable, sayCut } from '../../src/io/print.js';
import { cutWidth, displayWidth } from '../../src/io/width.js';
import { wrapText } from '../../src/io/width.js';

const SITES = [
  { id: 'site_bakery', name: 'Sunrise Bakery', ws: 'ws_demo', at: '30 days ago' },
  { id: 'site_portfolio', name: 'Ana Lima Portfolio', ws: 'ws_demo', at: '21 days ago' },
  { id: 'site_docs', name: 'Acme Docs', ws: 'ws_demo', at: '7 days ago' },
];
type Site = (typeof SITES)[number];
const COLUMNS = [
  { header: 'ID', value: (s: Site) => s.id },
  { header: 'NAME', value: (s: Site) => s.name },
  { header: 'WORKSPACE', value: (s: Site) => s.ws },
  { header: 'UPDATED', value: (s: Site) => s.at },
];

function printed(columns: number, rows = SITES) {
  const io = createTestIO({ tty: true, columns });
  const cut = printTable(io, COLUMNS, rows);
  return { lines: io.stdoutText().replace(/\n$/, '').split('\n'), cut };
}

describe('tables on a terminal', () => {
  it('print whole at their natural width when it fits, with no trailing blanks', () => {
    const { lines, cut } = printed(120);
    expect(lines).toEqual([
      'ID              NAME                WORKSPACE  UPDATED',
      'site_bakery     Sunrise Bakery      ws_demo    30 days ago',
      'site_portfolio  Ana Lima Portfolio  ws_demo    21 days ago',
      'site_docs       Acme Docs           ws_demo    7 days ago',
    ]);
    expect(cut).toBe(false);
  });

  it('cut the free-text column with … first, never the ids, and fit every width down to the minimum', () => {
    for (const width of [58, 55, 52, 50]) {
      const { lines, cut } = printed(width);
      for (const line of lines) expect(displayWidth(line), `${width}: ${line}`).toBeLessThanOrEqual(width);
      expect(lines[0]).toMatch(/^ID +NAME +WORKSPACE +UPDATED$/);
      for (const s of SITES) expect(lines.some((l) => l.startsWith(`${s.id}  `) && l.includes(s.at))).toBe(true);
      expect(cut).toBe(width < 58);
    }
    expect(printed(50).lines[2]).toBe('site_portfolio  Ana Lima…   ws_demo    21 days ago');
  });

  it('say once, on a terminal’s stderr, that a value was cut and how to see it whole', () => {
    const io = createTestIO({ tty: true, columns: 50 });
    printTable(io, COLUMNS, SITES);
    printTable(io, COLUMNS, SITES);
    // Wrapped to the terminal like every hint.
    expect(io.stderrText()).toBe('Values cut with … to fit show whole with `| cat`\n  or --json.\n');
    // Nothing cut, nothing said.
    const wide = createTestIO({ tty: true, columns: 120 });
    printTable(wide, COLUMNS, SITES);
    expect(wide.stderrText()).toBe('');
    // Not to a file, nor under --quiet; piped, nothing is cut.
    for (const quiet of [
      createTestIO({ tty: true, stderrTTY: false, columns: 50 }),
      Object.assign(createTestIO({ tty: true, columns: 50 }), { quiet: true }),
      createTestIO({ tty: false, columns: 50 }),
    ]) {
      printTable(quiet, COLUMNS, SITES);
      expect(quiet.stderrText()).toBe('');
    }
  });

  it('say in a picker which listing shows a label cut with … whole', () => {
    const rows = [{ cells: ['A name far too long to show whole in a narrow terminal'], id: 'site_1' }];
    expect(fitChoices(80, rows).cut).toBe(false);
    expect(fitChoices(40, rows).cut).toBe(true);
    expect(fitChoices(40, rows).lines[0]).toMatch(/…/);
    const io = createTestIO({ tty: true, columns: 40 });
    sayCut(io, 'sitebuilder backup list site_bakery | cat');
    sayCut(io, 'sitebuilder backup list site_bakery | cat');
    expect(io.stderrText()).toBe(
      'Labels cut with … to fit show whole in\n  `sitebuilder backup list site_bakery | cat`.\n',
    );
  });

  it('become key/value blocks below the minimum, where free text wraps and nothing is cut', () => {
    const { lines, cut } = printed(40);
    expect(lines.slice(0, 5)).toEqual([
      'ID         site_bakery',
      'NAME       Sunrise Bakery',
      'WORKSPACE  ws_demo',
      'UPDATED    30 days ago',
      '',
    ]);
    expect(cut).toBe(false);
    const long = [{ ...SITES[0], name: 'A very long name for a bakery that sells bread and cakes' }];
    const narrow = printed(34, long).lines;
    expect(narrow).toEqual([
      'ID         site_bakery',
      'NAME       A very long name for a',
      '           bakery that sells bread',
      '           and cakes',
      'WORKSPACE  ws_demo',
      'UPDATED    30 days ago',
    ]);
  });

  it('shrink the widest free column first, then share the cut', () => {
    const cols = [
      { header: 'ID', free: false },
      { header: 'LABEL', free: true },
      { header: 'DESCRIPTION', free: true },
    ];
    const row = ['id_1', 'x'.repeat(20), 'y'.repeat(60)];
    // 4 + 20 + 60 + 4 gaps = 88: to 70, only the description gives way.
    expect(columnWidths(cols, [row], 70)).toEqual([4, 20, 42]);
    // To 40: both, down to the same width.
    expect(columnWidths(cols, [row], 40)).toEqual([4, 16, 16]);
    // Below their minimum: no table.
    expect(columnWidths(cols, [row], 25)).toBeUndefined();
    expect(layoutTable(cols, [row], 25).kind).toBe('blocks');
  });

  it('count wide characters as two columns', () => {
    expect(displayWidth('日本語')).toBe(6);
    // Emoji shown as pictures take two columns; those shown as text (✔ ©) one, as tmux counts them.
    expect([displayWidth('🚀'), displayWidth('✔'), displayWidth('©'), displayWidth('✓')]).toEqual([2, 1, 1, 1]);
    expect(cutWidth('日本語のサイト', 7)).toBe('日本語…');
    const { lines } = printed(50, [{ ...SITES[0], name: '日本語のとても長いサイトの名前' }]);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(50);
  });

  it('follow a width change between two prints (the stream is asked each time)', () => {
    const io = createTestIO({ tty: true, columns: 120 });
    printTable(io, COLUMNS, SITES);
    Object.assign(io.stdout, { columns: 40 });
    printTable(io, COLUMNS, SITES);
    expect(io.stdoutText()).toContain('ID              NAME');
    expect(io.stdoutText()).toContain('ID         site_bakery\nNAME       Sunrise Bakery');
  });
});

describe('piped output', () => {
  it('is unchanged whatever the width: full values, tab-separated, no header', () => {
    for (const columns of [120, 40, 12]) {
      const io = createTestIO({ tty: false, columns });
      printTable(io, COLUMNS, [{ ...SITES[1], name: 'A very long name that no terminal would show whole' }]);
      expect(io.stdoutText()).toBe(
        'site_portfolio\tA very long name that no terminal would show whole\tws_demo\t21 days ago\n',
      );
    }
  });

  it('keeps fields on one line each', () => {
    const io = createTestIO({ tty: false, columns: 20 });
    printFields(io, [['Scopes', 'workspaces:read, sites:read, chat:write, chat:read']]);
    expect(io.stdoutText()).toBe('Scopes\tworkspaces:read, sites:read, chat:write, chat:read\n');
  });
});

describe('prose', () => {
  const sentence =
    'No site site_portfolio in the workspaces this token reaches; `sitebuilder site list` shows them. Follow it with: sitebuilder job watch site_portfolio job_000123';

  it('wraps at word boundaries with a hanging indent, commands whole', () => {
    const lines = wrapText(`error: ${sentence}`, 40).split('\n');
    expect(lines).toEqual([
      'error: No site site_portfolio in the',
      '  workspaces this token reaches;',
      '  `sitebuilder site list` shows them.',
      '  Follow it with:',
      // Wider than the terminal, but whole: the terminal folds it, and it copies as one line.
      '  sitebuilder job watch site_portfolio job_000123',
    ]);
    const wide = wrapText(`error: ${sentence}`, 60).split('\n');
    expect(wide[2]).toBe('  with: sitebuilder job watch site_portfolio job_000123');
    for (const line of wide) expect(line.length).toBeLessThanOrEqual(60);
  });

  it('moves a command under a row to the left edge where only that keeps it whole', () => {
    expect(wrapText('  sitebuilder job watch site_ab job_000019', 40)).toBe('sitebuilder job watch site_ab job_000019');
    expect(wrapText('    sitebuilder chat s_1 --approve --job job_000034', 50)).toBe(
      'sitebuilder chat s_1 --approve --job job_000034',
    );
    // Where it fits with its indent, the indent stays.
    expect(wrapText('  sitebuilder job watch s_1 job_1', 40)).toBe('  sitebuilder job watch s_1 job_1');
  });

  it('leaves lines that fit alone, and keeps each line’s own indent', () => {
    expect(wrapText('short line\n  also short', 40)).toBe('short line\n  also short');
    expect(wrapText('  Next:   check the records at your DNS host, or restart it', 40)).toBe(
      '  Next:   check the records at your DNS\n    host, or restart it',
    );
  });

  it('wraps hints on a terminal’s stderr, and leaves them alone when stderr is not one', () => {
    const tty = createTestIO({ tty: true, columns: 40 });
    tty.info(sentence);
    for (const line of tty.stderrText().trimEnd().split('\n'))
      expect(line.length <= 40 || line === '  sitebuilder job watch site_portfolio job_000123').toBe(true);
    const piped = createTestIO({ tty: false, columns: 40 });
    piped.info(sentence);
    expect(piped.stderrText()).toBe(`${sentence}\n`);
  });

  it('wraps field values under their start', () => {
    const io = createTestIO({ tty: true, columns: 40 });
    printFields(io, [
      ['Profile', 'default'],
      ['Scopes', 'workspaces:read, sites:read, chat:write, chat:read, publish:write'],
    ]);
    expect(io.stdoutText()).toBe(
      'Profile  default\nScopes   workspaces:read, sites:read,\n         chat:write, chat:read,\n         publish:write\n',
    );
  });

  it('moves a value too wide for the room beside long keys to its own line, whole or wrapped, never past the edge', () => {
    const fields: Array<[string, unknown]> = [
      ['restore', 'srs_000002'],
      ['started', '2026-11-27 16:32 UTC'],
      ['before restore backup', 'sbk_000008'],
      ['files', '0 added, 1 replaced, 0 removed, 0 skipped'],
      ['note', 'a long sentence of several words that is wider than any of the terminals it is shown on here'],
    ];
    for (const columns of [80, 60, 40, 30]) {
      const io = createTestIO({ tty: true, columns });
      printFields(io, fields);
      const lines = io.stdoutText().trimEnd().split('\n');
      for (const line of lines) expect(line.length, `${line} at ${columns}`).toBeLessThanOrEqual(columns);
      // Values to copy and short values show whole, on one line.
      for (const value of ['srs_000002', '2026-11-27 16:32 UTC', 'sbk_000008'])
        expect(io.stdoutText()).toContain(value);
      // No word is cut: the words of every value read back in order.
      expect(lines.join(' ').split(/\s+/).join(' ')).toBe(fields.flat().join(' ').split(/\s+/).join(' '));
    }
    const narrow = createTestIO({ tty: true, columns: 40 });
    printFields(narrow, fields);
    expect(narrow.stdoutText()).toContain('started\n  2026-11-27 16:32 UTC\n');
    expect(narrow.stdoutText()).toContain('files\n  0 added, 1 replaced, 0 removed, 0\n  skipped\n');
    expect(narrow.stdoutText()).toContain('restore                srs_000002\n');
    const wide = createTestIO({ tty: true, columns: 80 });
    printFields(wide, fields);
    expect(wide.stdoutText()).toContain('started                2026-11-27 16:32 UTC\n');
    expect(wide.stdoutText()).toContain('files                  0 added, 1 replaced, 0 removed, 0 skipped\n');
  });

  it('puts one word wider than the room beside the keys (an address) under its key, whole', () => {
    const io = createTestIO({ tty: true, columns: 40 });
    printFields(io, [
      ['status', 'ready'],
      ['url', 'http://127.0.0.1:40173/sites/site_bakery/'],
    ]);
    expect(io.stdoutText()).toBe('status  ready\nurl\nhttp://127.0.0.1:40173/sites/site_bakery/\n');
  });
});
