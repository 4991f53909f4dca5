// The token echoed back by the service never reaches an output (docs/reliability.md). A
// hostile service (test/helpers/planting-proxy.ts) puts the very token each request carried —
// `Authorization: Bearer …` — into every string it answers (names, messages, refusals, events,
// URLs), into X-Request-Id, and spells it with a JSON escape (`\u0073bt_…`) every other time, so
// that it is the token only once parsed. Every command runs piped, with --json, on a terminal and
// with --debug; stdout and stderr are scanned whole for the token and any 12 characters of its
// secret part. Then the single echoes, against a scripted server: a 400 that quotes the
// Authorization header, a 401 that quotes the token, `api` printing an echoed body and headers.
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createTestIO } from '../../src/io/io.js';
import { everyCommand, FirstChoicePrompter } from '../helpers/every-command.js';
import { type PlantingProxy, startPlantingProxy } from '../helpers/planting-proxy.js';
import { run, tempConfigDir } from '../helpers/run.js';
import { envelope, type ScriptServer, startScriptServer } from '../helpers/script-server.js';
import { SHAPES } from '../helpers/shapes.js';

type Mode = 'pipe' | 'json' | 'tty' | 'debug';

interface Outcome {
  argv: string[];
  stdout: string;
  stderr: string;
}

let emu: RunningEmulator;
let proxy: PlantingProxy;
let server: ScriptServer;
const clock = new FakeClock();
let file: string;

const tokenOf = (req: IncomingMessage) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
/** The token as a JSON string may spell it: its first letter as a \u escape. */
const escaped = (token: string) => `\\u${token.charCodeAt(0).toString(16).padStart(4, '0')}${token.slice(1)}`;

/** Every token of the seed (each is sent by some command line): none may show, nor 12 characters of its secret part. */
const SECRETS = Object.values(DEMO_TOKENS);
function leaks(text: string): string[] {
  const found: string[] = [];
  for (const token of SECRETS) {
    const secret = token.slice(token.lastIndexOf('_') + 1);
    if (text.includes(token)) found.push(token);
    for (let i = 0; i + 12 <= secret.length; i++)
      if (text.includes(secret.slice(i, i + 12))) found.push(`${token} (part)`);
  }
  return found;
}

/** One machine per mode: the runs it follows are remembered, so the replies printed then answer. */
const machines = new Map<Mode, string>();

async function cli(argv: string[], mode: Mode, extraEnv: Record<string, string> = {}): Promise<Outcome> {
  if (!machines.has(mode)) machines.set(mode, tempConfigDir());
  const io = createTestIO({ tty: mode === 'tty' });
  io.stdinStream.end(argv.includes('--with-token') ? DEMO_TOKENS.full : '');
  const full = mode === 'json' ? [...argv, '--json'] : mode === 'debug' ? [...argv, '--debug'] : argv;
  await main(full, {
    io,
    env: {
      SITEBUILDER_CONFIG_DIR: machines.get(mode) as string,
      SITEBUILDER_BASE_URL: proxy.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      ...(mode === 'tty' ? { TERM: 'xterm-256color' } : {}),
      ...extraEnv,
    },
    clock,
    prompter: mode === 'tty' ? new FirstChoicePrompter() : undefined,
    signal: new AbortController().signal,
  });
  return { argv: full, stdout: io.stdoutText(), stderr: io.stderrText() };
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  proxy = await startPlantingProxy(emu.baseUrl, {
    plantFor: (req) => ` (Authorization: Bearer ${tokenOf(req)})`,
    headerPlantFor: (req) => `-${tokenOf(req)}`,
    // Every other echo spelled with an escape: the token only once the JSON is parsed.
    rewrite: (text, req) => {
      const token = tokenOf(req);
      let n = 0;
      return token ? text.split(token).reduce((a, b) => a + (n++ % 2 ? escaped(token) : token) + b) : text;
    },
  });
  server = await startScriptServer();
  file = join(mkdtempSync(join(tmpdir(), 'sb-echo-')), 'notes.txt');
  writeFileSync(file, 'Opening hours\nMonday to Friday\n');
});
afterAll(async () => {
  await server.close();
  await proxy.close();
  await emu.close();
});

describe('a token echoed by the service', () => {
  it.each(['pipe', 'json', 'tty', 'debug'] as const)('reaches no output of any command: %s', async (mode) => {
    const ran: Outcome[] = [];
    const go = async (argv: string[], env: Record<string, string> = {}) => void ran.push(await cli(argv, mode, env));
    await go(['workspace', 'list', '--token', DEMO_TOKENS.expired]);
    await everyCommand({ emu, baseUrl: proxy.baseUrl, file, go, mode: `echo-${mode}` });
    const bad = ran.flatMap((o) =>
      [...leaks(o.stdout).map((l) => `stdout: ${l}`), ...leaks(o.stderr).map((l) => `stderr: ${l}`)].map(
        (l) => `${o.argv.join(' ')} → ${l}`,
      ),
    );
    expect(bad).toEqual([]);
    // The echoes were there, and printed masked: most outputs show the mask.
    const masked = ran.filter((o) => `${o.stdout}${o.stderr}`.includes('sbt_demo_…'));
    expect(masked.length).toBeGreaterThan(ran.length / 2);
  });
});

// Against a scripted server, no emulator: the same answers in either project, so run in the
// default one only.
describe.skipIf(SHAPES === 'alternate')('single echoes', () => {
  const token = DEMO_TOKENS.full;
  const env = () => ({ SITEBUILDER_BASE_URL: server.baseUrl, SITEBUILDER_TOKEN: token });

  it('a 400 quoting the Authorization header, in every mode', async () => {
    for (const extra of [[], ['--json'], ['--debug']]) {
      server.answerFor = () => ({
        status: 400,
        headers: { 'x-request-id': `req_${token}` },
        body: envelope({ header: `Bearer ${token}` }, 400, `Bad header: Authorization: Bearer ${token}`),
      });
      for (const tty of [false, true]) {
        const res = await run(['workspace', 'list', ...extra], { env: env(), tty });
        expect(res.code).toBe(1);
        expect(leaks(res.stdout + res.stderr)).toEqual([]);
        expect(res.stderr).toContain('Bearer sbt_demo_…4086');
        if (extra[0] === '--json') expect(JSON.parse(res.stderr).error.message).toContain('sbt_demo_…4086');
      }
    }
  });

  it('a 401 quoting the token', async () => {
    server.answerFor = () => ({ status: 401, body: envelope(null, 401, `The token ${token} has expired.`) });
    const res = await run(['site', 'list', '--workspace', 'ws_demo', '--json'], { env: env() });
    expect(res.code).toBe(4);
    expect(leaks(res.stdout + res.stderr)).toEqual([]);
    expect(res.stderr).toContain('The token sbt_demo_…4086 has expired.');
  });

  it('api prints an echoed body and its headers masked', async () => {
    server.answerFor = () => ({
      headers: { 'x-request-id': token, 'x-echo': `Bearer ${token}` },
      raw: JSON.stringify(envelope({ name: token, [token]: `\\u0073${token.slice(1)}` })).replace(
        `"\\\\u0073`,
        '"\\u0073',
      ),
      contentType: 'application/json',
    });
    for (const extra of [[], ['--include'], ['--json']]) {
      const res = await run(['api', 'list_workspaces', ...extra], { env: env() });
      expect(res.code, res.stderr).toBe(0);
      expect(leaks(res.stdout + res.stderr)).toEqual([]);
      expect(res.stdout).toContain('sbt_demo_…4086');
    }
  });
});
