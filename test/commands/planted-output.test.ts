// Nothing a hostile service plants reaches any output (docs/reliability.md). Every command runs
// against one hostile service (test/helpers/planting-proxy.ts: the emulator, with every class of
// escape sequence, C0, C1, DEL and the bidi controls planted in every string it answers,
// refusal messages and X-Request-Id included; and the very token each request carried echoed
// beside them, every other time spelled with a JSON escape: test/helpers/token-echo.ts), in four
// modes: piped, --json, a terminal with colour (an IO over buffers that says TTY) and --debug.
// stdout and stderr are scanned whole for planted characters and for the token or any 12
// characters of its secret part. Both plants go into the same answers, and what the client sends
// back has both taken out (so every command works as it would against the emulator itself): one
// run of every command serves both scans. The single echoes are echoed-token.test.ts's.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createTestIO } from '../../src/io/io.js';
import { FORBIDDEN, HEADER_PLANT, PLANT, type PlantingProxy, startPlantingProxy } from '../helpers/planting-proxy.js';
import { everyCommand, FirstChoicePrompter } from '../helpers/every-command.js';
import { tempConfigDir } from '../helpers/run.js';
import { echoOf, escapeEveryOther, leaks, maskedEchoOf, tokenOf } from '../helpers/token-echo.js';

type Mode = 'pipe' | 'json' | 'tty' | 'debug';

interface Outcome {
  argv: string[];
  mode: Mode;
  code: number;
  stdout: string;
  stderr: string;
}

let emu: RunningEmulator;
let proxy: PlantingProxy;
const clock = new FakeClock();
let file: string;

/** One machine per mode: the runs it follows are remembered, so the replies printed then answer. */
const machines = new Map<Mode, string>();

async function cli(argv: string[], mode: Mode, extraEnv: Record<string, string> = {}): Promise<Outcome> {
  if (!machines.has(mode)) machines.set(mode, tempConfigDir());
  const io = createTestIO({ tty: mode === 'tty' });
  io.stdinStream.end(argv.includes('--with-token') ? DEMO_TOKENS.full : '');
  const full = mode === 'json' ? [...argv, '--json'] : mode === 'debug' ? [...argv, '--debug'] : argv;
  const code = await main(full, {
    io,
    env: {
      SITEBUILDER_CONFIG_DIR: machines.get(mode)!,
      SITEBUILDER_BASE_URL: proxy.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      // A terminal in colour (FORCE_COLOR has no effect on the piped and JSON modes' stdout).
      ...(mode === 'tty' ? { TERM: 'xterm-256color' } : {}),
      ...extraEnv,
    },
    clock,
    prompter: mode === 'tty' ? new FirstChoicePrompter() : undefined,
    signal: new AbortController().signal,
  });
  const outcome = { argv: full, mode, code, stdout: io.stdoutText(), stderr: io.stderrText() };
  return outcome;
}

/**
 * What a clean output may hold on a terminal in colour: our SGR (bold, dim, colours, resets),
 * the spinner's line clearing and the playback's cursor moves (io.ts REWRITE_ROW: up one row; or
 * up N rows and clear below, to redraw the agent's Markdown). Our SGR: colours, bold, dim, and
 * the Markdown's italic, underline (links) and strikethrough.
 */
const OWN_SEQUENCES =
  /\u001b\[(?:[0-9;]*m|2K|J)|\u001b\[1A(?=\r\u001b\[2K)|\u001b\[\d+A(?=\r\u001b\[J)|\r(?=\u001b\[(?:2K|J))/g;
const OWN_SGR = /^\u001b\[(?:0|1|2|1;2|22|3|23|4|24|9|29|3[0-9]|9[0-7]|39)m$/;

function problems(o: Outcome): string[] {
  const found: string[] = [];
  for (const [name, text] of [
    ['stdout', o.stdout],
    ['stderr', o.stderr],
  ] as const) {
    const own = o.mode === 'tty' ? (text.match(OWN_SEQUENCES) ?? []) : [];
    for (const seq of own)
      if (seq.endsWith('m') && !OWN_SGR.test(seq)) found.push(`${name}: planted SGR ${JSON.stringify(seq)}`);
    const rest = o.mode === 'tty' ? text.replace(OWN_SEQUENCES, '') : text;
    const at = rest.search(FORBIDDEN);
    if (at >= 0) found.push(`${name}: ${JSON.stringify(rest.slice(Math.max(0, at - 40), at + 20))}`);
  }
  return found;
}

async function everyMode(mode: Mode): Promise<Outcome[]> {
  const ran: Outcome[] = [];
  const go = async (argv: string[], env: Record<string, string> = {}) => void ran.push(await cli(argv, mode, env));
  // A token the service refuses, echoed in the refusal.
  await go(['workspace', 'list', '--token', DEMO_TOKENS.expired]);
  await everyCommand({ emu, baseUrl: proxy.baseUrl, file, go, mode });
  return ran;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  proxy = await startPlantingProxy(emu.baseUrl, {
    plantFor: (req) => `${echoOf(req)}${PLANT}`,
    headerPlantFor: (req) => `-${tokenOf(req)}${HEADER_PLANT}`,
    rewrite: escapeEveryOther,
    sentBackAs: (req) => [`${maskedEchoOf(req)}${PLANT}`],
  });
  file = join(mkdtempSync(join(tmpdir(), 'sb-planted-')), 'notes.txt');
  // A text file (no NUL, which would make it binary) with every other planted character.
  writeFileSync(file, `Opening hours${PLANT.replace('\u0000', '')}\nMonday to Friday\n`);
});
afterAll(async () => {
  await proxy.close();
  await emu.close();
});

/** Piped: with --debug too. */
const piped = (mode: Mode) => mode === 'pipe' || mode === 'debug';

/**
 * The one output left as it came: a file's bytes piped by `storage-backup read` (the user's own
 * file, for `> file`; on a terminal it is shown sanitized like everything else).
 */
const rawByDesign = (o: Outcome) => piped(o.mode) && o.argv[0] === 'storage-backup' && o.argv[1] === 'read';

/** The token reached no output; the echoes were there, and printed masked: most outputs show the mask. */
function checkTokens(ran: Outcome[]): void {
  const bad = ran.flatMap((o) =>
    [...leaks(o.stdout).map((l) => `stdout: ${l}`), ...leaks(o.stderr).map((l) => `stderr: ${l}`)].map(
      (l) => `${o.argv.join(' ')} → ${l}`,
    ),
  );
  expect(bad).toEqual([]);
  const masked = ran.filter((o) => `${o.stdout}${o.stderr}`.includes('sbt_demo_…'));
  expect(masked.length).toBeGreaterThan(ran.length / 2);
}

function checkPlanted(mode: Mode, ran: Outcome[]): void {
  const scanned = ran.filter((o) => !rawByDesign(o));
  const bad = scanned.flatMap((o) => problems(o).map((p) => `${o.argv.join(' ')} [${o.mode}] → ${p}`));
  expect(bad).toEqual([]);
  // The scan saw planted fields: most commands printed the marker that sat among the controls.
  const shown = scanned.filter((o) => `${o.stdout}${o.stderr}`.includes('PLANTED'));
  expect(shown.length).toBeGreaterThan(scanned.length / 2);
  // The file read back on a terminal was shown, cleaned; piped, it is the file as it was.
  const read = ran.find((o) => o.argv[1] === 'read');
  if (mode === 'tty') expect(read?.stdout).toContain('Opening hoursPLANTED');
  if (piped(mode)) expect(read?.stdout).toContain(PLANT.replace('\u0000', ''));
  if (mode !== 'json') return;
  // --json: every stdout is JSON (or NDJSON), every error a JSON document on stderr.
  for (const o of scanned)
    for (const text of [o.stdout, o.stderr].filter((t) => t.trim() !== ''))
      expect(() => parseJsonOrNdjson(text), `${o.argv.join(' ')}: ${text.slice(0, 200)}`).not.toThrow();
  // In JSON the planted characters are there, as \u escapes: the same value, valid JSON (the
  // echoed token in it masked).
  const view = scanned.find((o) => o.argv[0] === 'site' && o.argv[1] === 'view');
  const strings: string[] = [];
  JSON.parse(view?.stdout ?? 'null', (_k, v) => {
    if (typeof v === 'string') strings.push(v);
    return v;
  });
  expect(strings).toContain(`Sunrise Bakery (Authorization: Bearer sbt_demo_…4086)${PLANT}`);
  expect(view?.stdout).toContain('\\u202e');
  expect(view?.stdout).toContain('\\u009b');
}

describe('planted control and bidi characters, and the token echoed', () => {
  it.each(['pipe', 'json', 'tty', 'debug'] as const)('reach no output of any command: %s', async (mode) => {
    const ran = await everyMode(mode);
    checkTokens(ran);
    checkPlanted(mode, ran);
  });
});

function parseJsonOrNdjson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  }
}
