// The output boundary (src/io/sanitize.ts, the IO's writers, style.ts), degenerate terminals
// (the status line and the spinner), enquirer's prompts (NO_COLOR, cleaned labels, cancelled by
// the abort signal) and the id checks (src/input.ts). docs/reliability.md.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { InterruptedError, UsageError } from '../../src/errors.js';
import { checkId, looksLikeToken } from '../../src/input.js';
import { createTestIO } from '../../src/io/io.js';
import { printTable } from '../../src/io/print.js';
import { EnquirerPrompter } from '../../src/io/enquirer-prompter.js';
import { FORMAT_CHARACTERS, forJson, forTerminal, jsonText, sanitize, sanitizeDeep } from '../../src/io/sanitize.js';
import { startSpinner } from '../../src/io/spinner.js';
import { style } from '../../src/io/style.js';
import { FORBIDDEN, PLANT } from '../helpers/planting-proxy.js';
import { waitFor } from '../helpers/wait-for.js';

const CLASSES: Array<[string, string]> = [
  ['CSI', '\u001b[2J\u001b[1;1H\u001b[?1049h'],
  ['SGR', '\u001b[31m\u001b[8m'],
  ['OSC 52 (BEL)', '\u001b]52;c;ZXZpbA==\u0007'],
  ['OSC 8 (ST)', '\u001b]8;;https://x.example\u001b\\'],
  ['OSC ended by 8-bit ST', '\u001b]0;title\u009c'],
  ['DCS', '\u001bPq#0;2;0;0;0\u001b\\'],
  ['APC', '\u001b_Gf=24;AAAA\u001b\\'],
  ['PM', '\u001b^private\u001b\\'],
  ['SOS', '\u001bXstring\u001b\\'],
  ['nF and Fs escapes', '\u001b(B\u001bc\u001b7'],
  ['8-bit CSI', '\u009b2J'],
  ['8-bit OSC, DCS, SOS, PM, APC', '\u009d0;t\u009c\u0090q\u009c\u0098s\u009c\u009ep\u009c\u009fa\u009c'],
  ['other C1', '\u0085\u008d\u0080'],
  ['C0', '\u0000\u0007\u0008\u000b\u000c\u000e\u001a\u001f'],
  ['DEL', '\u007f'],
  ['bidi embeddings and overrides', '\u202a\u202b\u202c\u202d\u202e'],
  ['bidi isolates', '\u2066\u2067\u2068\u2069'],
  ['bidi marks', '\u200e\u200f\u061c'],
  ['zero-width space, joiners, word joiner', '\u200b\u200c\u200d\u2060'],
  ['BOM and soft hyphen', '\ufeff\u00ad'],
  ['tag characters', '\u{e0001}\u{e0041}\u{e007f}'],
  ['other format characters', '\u0600\u180e\u2061\u2064\ufff9\u{1d173}'],
];

describe('the sanitizer', () => {
  it.each(CLASSES)('removes %s, keeping the text around it', (_name, seq) => {
    expect(sanitize(`a${seq}b`)).toBe('ab');
    expect(forTerminal(`a${seq}b\tc\n`, true)).toBe('ab\tc\n');
  });

  it('a name with an invisible character cannot pass for another', () => {
    expect(sanitize('site_bak\u200dery')).toBe('site_bakery');
    expect(forTerminal('site_bak\u200dery', false)).toBe('site_bakery');
    // Under --json it is the same value, escaped: a reader sees it is not site_bakery.
    expect(jsonText({ id: 'site_bak\u200dery' })).toBe('{"id":"site_bak\\u200dery"}');
    expect(jsonText({ tag: '\u{e0041}' })).toBe('{"tag":"\\udb40\\udc41"}');
  });

  it('removes every format character (Unicode Cf) of this Node, and only those, spelled out as they are', () => {
    // FORMAT_CHARACTERS spells \p{Cf} out (a property class costs start-up time): the same set.
    const spelled = new RegExp(`^[${FORMAT_CHARACTERS}]$`, 'u');
    const cf = /^\p{Cf}$/u;
    const differ: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (spelled.test(c) !== cf.test(c)) differ.push(cp.toString(16));
    }
    expect(differ).toEqual([]);
    for (const c of ['\u00ad', '\u061c', '\u202e', '\u2066', '\ufeff', '\u{e0041}']) {
      expect(sanitize(`a${c}b`)).toBe('ab');
      expect(() => checkId('The site id', `site${c}x`)).toThrow(UsageError);
    }
    expect(sanitize('a\u00acb\u0606')).toBe('a\u00acb\u0606');
  });

  it('turns the line and paragraph separators into newlines', () => {
    expect(sanitize('a\u2028b\u2029c')).toBe('a\nb\nc');
    expect(forTerminal('a\u2028b', false)).toBe('a\nb');
  });

  it('walks data nested 100,000 levels deep without recursion', () => {
    let deep: unknown = '\u200bleaf';
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { k: deep };
    let out = sanitizeDeep(deep) as unknown;
    for (let i = 99_999; i >= 0; i--) out = i % 2 ? (out as unknown[])[0] : (out as { k: unknown }).k;
    expect(out).toBe('leaf');
  });

  it('keeps a key named __proto__ as data', () => {
    const out = sanitizeDeep(JSON.parse('{"__proto__":{"x":1}}')) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(({} as { x?: number }).x).toBeUndefined();
  });

  it('removes an OSC left open to the end of the text (as a terminal would swallow it)', () => {
    expect(sanitize('a\u001b]52;c;ZXZpbA== and the rest')).toBe('a');
  });

  it('turns carriage returns into newlines (no line overwritten), and keeps tabs', () => {
    expect(sanitize('safe\rEVIL\r\nnext\tcol')).toBe('safe\nEVIL\nnext\tcol');
    expect(forTerminal('a\rb', false)).toBe('a\nb');
  });

  it('writes JSON whose strings hold every class as \\u escapes: the same value, nothing raw', () => {
    const value = { name: `x${PLANT}`, list: [PLANT, { [`k${PLANT}`]: PLANT }], sep: '\u2028\u2029' };
    for (const text of [jsonText(value), jsonText(value, 2), forJson(JSON.stringify(value))]) {
      expect(text).not.toMatch(FORBIDDEN);
      expect(text).not.toMatch(/[\u2028\u2029]/);
      expect(JSON.parse(text)).toEqual(value);
    }
  });
});

describe('the IO writers', () => {
  it('clean everything written, on every writer, in every mode', () => {
    for (const tty of [false, true]) {
      const io = createTestIO({ tty, colorLevel: tty ? 1 : 0 });
      io.out(PLANT);
      io.outLine(PLANT);
      io.err(PLANT);
      io.errLine(PLANT);
      io.info(PLANT);
      io.warn(PLANT);
      printTable(io, [{ header: 'NAME', value: (r: string) => r }], [PLANT]);
      const all = `${io.stdoutText()}${io.stderrText()}`.replace(/\u001b\[[0-9;]*m/g, '');
      expect(all).not.toMatch(FORBIDDEN);
      expect(all).toContain('PLANTED');
      expect(io.stdoutText()).not.toMatch(/\u001b\[[58]m/);
    }
  });

  it('under --json, escape what a hand-built JSON line holds instead of dropping it', () => {
    const io = createTestIO();
    io.json = true;
    io.outLine(`{"name":"${PLANT.replace(/[\u0000-\u001f"\\]/g, '')}"}`);
    expect(io.stdoutText()).not.toMatch(FORBIDDEN);
    const name = JSON.parse(io.stdoutText()).name;
    expect(name).toContain('\u202e');
    expect(name).toContain('\u009b');
    io.printJson({ name: PLANT });
    expect(JSON.parse(io.stdoutText().split('\n')[1]).name).toBe(PLANT);
  });

  it('keep our own colour and drop a planted one, even when it is painted with ours', () => {
    const io = createTestIO({ tty: true, colorLevel: 1 });
    const c = style(io);
    io.outLine(`${c.red('own')} \u001b[31mplanted\u001b[0m ${c.bold.green(`in\u001b[8m${c.dim('side')}`)}`);
    const out = io.stdoutText();
    expect(out).toContain('\u001b[31mown\u001b[39m');
    expect(out).toContain(' planted ');
    expect(out).toContain('\u001b[2mside\u001b[22m');
    expect(out).not.toContain('\u001b[8m');
    expect(out).not.toContain('\u001b[0m');
    // Our mark cannot be forged: it is drawn at random; a Private Use character before an SGR is not it.
    io.outLine('\ue000\u001b[31mforged');
    expect(io.stdoutText()).not.toContain('\u001b[31mforged');
  });

  it('drop our own colour too when colour is off', () => {
    const io = createTestIO({ tty: true, colorLevel: 1 });
    const own = style(io).red('own');
    io.colorLevel = 0;
    io.outLine(own);
    expect(io.stdoutText()).toBe('own\n');
  });
});

describe('degenerate terminals', () => {
  it.each([
    [{ columns: 0 }],
    [{ columns: 0, rows: 0 }],
    [{ columns: 80, rows: 0 }],
    [{ columns: 1 }],
    [{ columns: 65_535, rows: 65_535 }],
  ])('%j cannot be redrawn: the spinner appends its labels as lines', async (size) => {
    const io = createTestIO({ tty: true, ...size });
    expect(io.canRedraw).toBe(false);
    expect(io.columns).toBe(80);
    const spinner = await startSpinner(io, new FakeClock(), 'Publishing site_bakery');
    spinner.update('Publishing site_bakery (queued)');
    spinner.update('Publishing site_bakery (queued)');
    spinner.update(`Publishing site_bakery ${PLANT}`);
    spinner.stop('Published');
    expect(io.stderrText()).toBe(
      'Publishing site_bakery\nPublishing site_bakery (queued)\nPublishing site_bakery PLANTED \nPublished\n',
    );
  });

  it('a sane terminal gets one status line, cut to its width, lifted out of the way of what is printed', async () => {
    const io = createTestIO({ tty: true, columns: 20, rows: 10 });
    expect(io.canRedraw).toBe(true);
    const spinner = await startSpinner(io, new FakeClock(), `${'x'.repeat(100)}${PLANT}`);
    io.outLine('a line');
    spinner.stop();
    const lines = io.stderrText().split('\r\u001b[2K');
    // Each drawing of the status fits in 19 columns: clearing it never has a second row to clear.
    for (const l of lines.filter((t) => t.startsWith('⠋') || t.startsWith('⠙')))
      expect([...l].length).toBeLessThanOrEqual(19);
    expect(io.stderrText()).not.toMatch(/\u001b\]|\u202e/);
    expect(io.stdoutText()).toBe('a line\n');
    // Written above the status: cleared first, drawn again after; cleared at the end.
    expect(io.stderrText().endsWith('\r\u001b[2K')).toBe(true);
  });
});

describe('enquirer prompts', () => {
  /** A prompter over buffers that say they are a terminal: enquirer runs for real. */
  function terminal(colorLevel: 0 | 1, signal?: AbortSignal) {
    const io = createTestIO({ tty: true, colorLevel });
    Object.assign(io.stdinStream, { isTTY: true, setRawMode: () => io.stdinStream });
    return { io, prompter: new EnquirerPrompter(io, {}, signal) };
  }
  const shown = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

  it('print no colour under NO_COLOR, and show planted labels cleaned', async () => {
    for (const colorLevel of [0, 1] as const) {
      const { io, prompter } = terminal(colorLevel);
      const picked = prompter.select(`Pick one${PLANT}`, [
        { label: `first${PLANT}`, value: 1, hint: `hint${PLANT}` },
        { label: 'second', value: 2 },
      ]);
      await waitFor(() => io.stderrText().includes('second'), { what: 'the select on the screen' });
      io.stdinStream.write('\r');
      expect(await picked).toBe(1);
      const out = io.stderrText();
      expect(/\u001b\[[0-9;]*m/.test(out), `colour level ${colorLevel}`).toBe(colorLevel === 1);
      expect(shown(out)).not.toMatch(FORBIDDEN);
      expect(out).not.toMatch(/\u001b\[(?:2J|\?1049h|5m|8m)|\u001b[\]P_^X]/);
      expect(out).toContain('PLANTED');
    }
  });

  it('are cancelled when the signal aborts (a SIGINT sent by kill, not typed)', async () => {
    const abort = new AbortController();
    const { io, prompter } = terminal(0, abort.signal);
    const answer = prompter.input('Describe the site to build');
    await waitFor(() => io.stderrText().includes('Describe'), { what: 'the prompt on the screen' });
    abort.abort();
    await expect(answer).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe('id checks', () => {
  it('recognize tokens: the one in force, its prefix, the service prefix, JWTs, random keys', () => {
    expect(looksLikeToken('abc_live_0123456789abcdef', 'abc_live_zzzzzzzzzzzzzzzzz')).toBe(true);
    expect(looksLikeToken('x-sbt_demo_full_5f1c9a2e7b3d4086', 'sbt_demo_full_5f1c9a2e7b3d4086')).toBe(true);
    expect(looksLikeToken('sbt_0123456789abcdef')).toBe(true);
    expect(looksLikeToken('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig')).toBe(true);
    // Random base62 keys of 32 characters, from a fixed generator: nearly all are recognized.
    let seed = 42;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const keys = Array.from({ length: 1000 }, () => Array.from({ length: 32 }, () => A[next() % 62]).join(''));
    expect(keys.filter((k) => looksLikeToken(k)).length).toBeGreaterThan(980);
  });

  it('leave the ids of the service alone', () => {
    for (const id of [
      'site_bakery',
      'job_000012',
      '665f1c2a0123456789abcdef',
      '3f2b8c1e-5d4a-4b7e-9c2d-1a2b3c4d5e6f',
      'da39a3ee5e6b4b0d3255bfef95601890afd80709',
      'BK-000001',
      'MyVeryLongSiteIdentifierName2024Edition',
    ])
      expect(looksLikeToken(id, 'sbt_demo_full_5f1c9a2e7b3d4086'), id).toBe(false);
  });

  it('refuse without repeating the value', () => {
    for (const bad of [
      '',
      ' ',
      'a\u001b[2Jb',
      'a\u202eb',
      'a b',
      'a\nb',
      'x'.repeat(257),
      'sbt_demo_full_5f1c9a2e7b3d4086',
    ]) {
      let error: unknown;
      try {
        checkId('The site id', bad);
      } catch (err) {
        error = err;
      }
      expect(error, JSON.stringify(bad)).toBeInstanceOf(UsageError);
      if (bad.trim()) expect((error as Error).message).not.toContain(bad);
    }
    expect(checkId('The site id', 'x'.repeat(256))).toHaveLength(256);
  });
});
