import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideColorLevel } from '../../src/io/color-level.js';
import { createTestIO } from '../../src/io/io.js';
import { isPipe } from '../../src/io/system-io.js';
import { printTable } from '../../src/io/print.js';
import { maskToken, SecretMask } from '../../src/io/mask.js';
import { isoTime } from '../../src/io/records.js';
import { sanitize } from '../../src/io/sanitize.js';

describe('colour policy', () => {
  const tty = (env: Record<string, string>, noColorFlag = false, stdoutIsTTY = true) =>
    decideColorLevel({ env, stdoutIsTTY, noColorFlag });
  it('is on for a terminal and off when piped', () => {
    expect(tty({ TERM: 'xterm' })).toBe(1);
    expect(tty({ TERM: 'xterm-256color' })).toBe(2);
    expect(tty({}, false, false)).toBe(0);
  });
  it.each([
    [{ NO_COLOR: '' }, 0],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, 0],
    [{ CLICOLOR: '0' }, 0],
    [{ TERM: 'dumb' }, 0],
  ])('%j turns it off', (env, level) => expect(tty(env as Record<string, string>)).toBe(level));
  it('--no-color wins over everything', () => expect(tty({ FORCE_COLOR: '3' }, true)).toBe(0));
  it('FORCE_COLOR and CLICOLOR_FORCE force it on a terminal, over CLICOLOR=0 and TERM=dumb', () => {
    expect(tty({ FORCE_COLOR: '2', TERM: 'dumb' })).toBe(2);
    expect(tty({ FORCE_COLOR: '1', CLICOLOR: '0' })).toBe(1);
    expect(tty({ CLICOLOR_FORCE: '1', TERM: 'dumb' })).toBe(1);
    expect(tty({ FORCE_COLOR: '0', TERM: 'xterm-256color' })).toBe(0);
  });
  it('never when piped: piped output is data (docs/scripting.md "Output contract")', () => {
    expect(tty({ FORCE_COLOR: '3' }, false, false)).toBe(0);
    expect(tty({ FORCE_COLOR: '1', CLICOLOR_FORCE: '1' }, false, false)).toBe(0);
  });
});

describe('redrawing stderr while stdout goes elsewhere', () => {
  const withFd = <T>(path: string, flags: string, fn: (fd: number) => T): T => {
    const fd = openSync(path, flags);
    try {
      return fn(fd);
    } finally {
      closeSync(fd);
    }
  };
  it('tells a pipe (a FIFO) from a file and /dev/null', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-pipe-'));
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // Opened for reading and writing, a FIFO does not wait for the other end.
    expect(withFd(fifo, 'r+', isPipe)).toBe(true);
    writeFileSync(join(dir, 'file'), '');
    expect(withFd(join(dir, 'file'), 'w', isPipe)).toBe(false);
    expect(withFd('/dev/null', 'w', isPipe)).toBe(false);
  });
  it('holds no live block on stderr when stdout is a pipe whose reader may print to the same terminal', () => {
    const piped = createTestIO({ stdoutTTY: false, stderrTTY: true, stdoutPipe: true, columns: 80, rows: 24 });
    expect(piped.canAnimate).toBe(true);
    expect(piped.canRedraw).toBe(false);
    piped.liveBlock(['a row', 'a spinner']);
    piped.outLine('data');
    expect(piped.stderrText()).toBe('');
    // Into a file (or /dev/null) nothing else prints: the block is drawn, and cleared.
    const file = createTestIO({ stdoutTTY: false, stderrTTY: true, stdoutPipe: false, columns: 80, rows: 24 });
    expect(file.canRedraw).toBe(true);
    file.liveBlock(['a row', 'a spinner']);
    file.liveBlock(undefined);
    expect(file.stderrText()).toBe('a row\na spinner\r\u001b[2K\u001b[1A\r\u001b[2K');
    // stdout the terminal itself: redrawn, whatever else.
    expect(createTestIO({ tty: true, stdoutPipe: true, columns: 80, rows: 24 }).canRedraw).toBe(true);
  });
});

describe('output modes', () => {
  const rows = [
    { id: 's1', name: 'Bakery', at: new Date('2026-01-02T03:04:05Z') },
    { id: 's2', name: 'Tab\there', at: new Date('2026-01-03T00:00:00Z') },
  ];
  const cols = [
    { header: 'ID', value: (r: (typeof rows)[0]) => r.id },
    { header: 'NAME', value: (r: (typeof rows)[0]) => r.name },
    { header: 'AT', value: (r: (typeof rows)[0]) => r.at },
  ];
  it('prints tab-separated rows without header or ANSI when piped', () => {
    const io = createTestIO({ tty: false });
    printTable(io, cols, rows);
    expect(io.stdoutText()).toBe('s1\tBakery\t2026-01-02T03:04:05.000Z\ns2\tTab here\t2026-01-03T00:00:00.000Z\n');
  });
  it('prints a table with a header on a terminal, and no ANSI without colour', () => {
    const io = createTestIO({ tty: true, colorLevel: 0 });
    printTable(io, cols, rows);
    const out = io.stdoutText();
    expect(out).toMatch(/^ID +NAME +AT$/m);
    expect(out).toContain('Bakery');
    expect(out).not.toContain('\u001b');
  });
  it('prints one JSON document', () => {
    const io = createTestIO();
    io.printJson({ a: 1 });
    expect(JSON.parse(io.stdoutText())).toEqual({ a: 1 });
  });
});

describe('sanitize', () => {
  it('makes escape sequences from the service inert', () => {
    const osc52 = '\u001b]52;c;ZXZpbA==\u0007';
    expect(sanitize(`hi ${osc52}there`)).toBe('hi there');
    expect(sanitize('a\u001b[2J\u001b[1;1Hb')).toBe('ab');
    expect(sanitize('red\u001b[31mtext\u001b[0m')).toBe('redtext');
    expect(sanitize('c1\u009b31mx')).toBe('c1x');
    expect(sanitize('bell\u0007 back\b cr\r\nline')).toBe('bell back cr\nline');
    expect(sanitize('tab\tand\nnewline stay')).toBe('tab\tand\nnewline stay');
    expect(sanitize('bidi\u202eoverride\u2066isolate')).toBe('bidioverrideisolate');
    expect(sanitize('plain text, “quotes” and émoji 🙂')).toBe('plain text, “quotes” and émoji 🙂');
  });
});

describe('isoTime', () => {
  it('writes what Date.prototype.toISOString writes, from a Date, epoch ms or a string', () => {
    const edges = [0, -1, 1, 951782400000, -62167219200000, -62167219200001, 253402300799999, 253402300800000];
    const spread = Array.from({ length: 2000 }, (_, i) => (i - 1000) * 7_777_777_777_777 + i * 12_345);
    for (const ms of [...edges, ...spread]) {
      const d = new Date(ms);
      expect(isoTime(ms), String(ms)).toBe(d.toISOString());
      expect(isoTime(d)).toBe(d.toISOString());
    }
    expect(isoTime('2026-10-23T18:20:23.988+02:00')).toBe('2026-10-23T16:20:23.988Z');
    expect(isoTime('not a time')).toBe('not a time');
    expect(isoTime(undefined)).toBe('');
  });
});

describe('maskToken', () => {
  it('keeps only the prefix and the last four characters', () => {
    expect(maskToken('sb_live_abcdefghijklmnop1234')).toBe('sb_live_…1234');
    expect(maskToken('sbt_3f0a9c2e7b1d4d3_9f8e')).toBe('sbt_…9f8e');
    expect(maskToken('short')).toBe('****');
  });
});

describe('the IO masks every token handed to a client', () => {
  const token = 'sbt_demo_full_5f1c9a2e7b3d4086';
  it('in every writer and every mode, as it is or as a JSON string holds it', () => {
    for (const [tty, json] of [
      [false, false],
      [true, false],
      [false, true],
    ]) {
      const io = createTestIO({ tty });
      io.json = json;
      io.secrets.add(token);
      io.outLine(`Bearer ${token}`);
      io.errLine(`[debug] request=${token}x`);
      io.printJson({ message: `quoted "${token}"`, [token]: 1 });
      io.status(token);
      const all = io.stdoutText() + io.stderrText();
      expect(all).not.toContain(token);
      expect(all).not.toContain('5f1c9a2e7b3d');
      expect(all).toContain('sbt_demo_…4086');
    }
  });

  it('leaves short secrets and text without one alone', () => {
    const mask = new SecretMask();
    mask.add('abc');
    mask.add(undefined);
    expect(mask.apply('abc def')).toBe('abc def');
  });
});
