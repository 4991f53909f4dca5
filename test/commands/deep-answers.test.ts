// Hostile answers nested absurdly deep never crash a command (docs/reliability.md). A
// hostile service (test/helpers/planting-proxy.ts) puts a value nested 100,000 levels deep into
// the `data` of every answer and refusal, and of the first event or record inside it. JSON.parse reads it; everything
// after it (sanitizing, reading, rendering, --json and NDJSON output) walks it without recursion,
// or refuses a listing of records nested that deep with a sentence naming the depth. Every
// command runs piped, with --json and on a terminal: none ends on "Maximum call stack size
// exceeded", and under --json every output, errors included, is JSON.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createTestIO } from '../../src/io/io.js';
import { everyCommand, FirstChoicePrompter } from '../helpers/every-command.js';
import { type PlantingProxy, startPlantingProxy } from '../helpers/planting-proxy.js';
import { tempConfigDir } from '../helpers/run.js';

type Mode = 'pipe' | 'json' | 'tty';

interface Outcome {
  argv: string[];
  code: number;
  stdout: string;
  stderr: string;
}

const LEVELS = 100_000;
/** Levels of objects and lists around a 1, as text (JSON.stringify cannot write 8,000). */
const deep = (levels: number) => `${'{"a":['.repeat(levels / 2)}1${']}'.repeat(levels / 2)}`;
/** What the proxy plants now: every command gets 20,000 levels; the run followed and the refusal 100,000. */
let planted = deep(20_000);
/** A last change to every answer's text (the agent's Markdown, below). */
let rewriteText = (text: string) => text;

let emu: RunningEmulator;
let proxy: PlantingProxy;
const clock = new FakeClock();
let file: string;

async function cli(argv: string[], mode: Mode, extraEnv: Record<string, string> = {}): Promise<Outcome> {
  const io = createTestIO({ tty: mode === 'tty' });
  io.stdinStream.end(argv.includes('--with-token') ? DEMO_TOKENS.full : '');
  const full = mode === 'json' ? [...argv, '--json'] : argv;
  const code = await main(full, {
    io,
    env: {
      SITEBUILDER_CONFIG_DIR: tempConfigDir(),
      SITEBUILDER_BASE_URL: proxy.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      ...extraEnv,
    },
    clock,
    prompter: mode === 'tty' ? new FirstChoicePrompter() : undefined,
    signal: new AbortController().signal,
  });
  return { argv: full, code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

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

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  proxy = await startPlantingProxy(emu.baseUrl, {
    plantFor: () => '',
    // The answer's own data and the first object named data inside it (an event's, a record's):
    // two are enough to be walked by everything that reads the answer, and keep the suite quick.
    rewrite: (text) => {
      let n = 0;
      return rewriteText(text).replace(/"data":\{/g, (m) => (n++ < 2 ? `"data":{"deep":${planted},` : m));
    },
  });
  file = join(mkdtempSync(join(tmpdir(), 'sb-deep-')), 'notes.txt');
  writeFileSync(file, 'Opening hours\n');
});
afterAll(async () => {
  await proxy.close();
  await emu.close();
});

describe('answers nested absurdly deep', () => {
  it.each(['pipe', 'json', 'tty'] as const)(
    'crash no command (20,000 levels): %s',
    async (mode) => {
      const ran: Outcome[] = [];
      const go = async (argv: string[], env: Record<string, string> = {}) => void ran.push(await cli(argv, mode, env));
      await everyCommand({ emu, baseUrl: proxy.baseUrl, file, go, mode: `deep-${mode}` });
      const crashed = ran.filter((o) => /call stack|Unexpected error/i.test(o.stderr));
      expect(crashed.map((o) => `${o.argv.join(' ')}: ${o.stderr.slice(0, 200)}`)).toEqual([]);
      if (mode !== 'json') return;
      for (const o of ran)
        for (const text of [o.stdout, o.stderr].filter((t) => t.trim() !== ''))
          expect(() => parseJsonOrNdjson(text), `${o.argv.join(' ')}: ${text.slice(0, 200)}`).not.toThrow();
    },
    180_000,
  );

  it.each(['pipe', 'json', 'tty'] as const)(
    'job watch follows a run whose events hold 100,000 levels: %s',
    async (mode) => {
      try {
        // The run is started as every command is answered; only what follows it holds 100,000.
        await cli(['chat', 'site_docs', 'Add a glossary page', '--no-follow'], 'pipe');
        planted = deep(LEVELS);
        const job = (emu.state.domains.chat as { sites: Record<string, { lastJobId: string }> }).sites.site_docs
          .lastJobId;
        const o = await cli(['job', 'watch', 'site_docs', job], mode);
        expect(o.stderr).not.toMatch(/call stack|Unexpected error/i);
        expect(o.code).toBe(0);
        if (mode === 'json') expect(parseJsonOrNdjson(o.stdout)).toBeTruthy();
      } finally {
        planted = deep(20_000);
      }
    },
  );

  // The agent's text, rendered as Markdown on a terminal, nested 100,000 levels (as JSON text).
  const markdown: Array<[string, string]> = [
    ['quotes', `${'> '.repeat(LEVELS)}deep`],
    ['emphasis', `${'*a '.repeat(LEVELS)}b${' c*'.repeat(LEVELS)}`],
    ['a list', Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}- item`).join('\\n')],
  ];
  it.each(markdown)(
    'a run followed on a terminal shows agent text of %s nested past any depth',
    async (_what, text) => {
      const before = rewriteText;
      try {
        // The first text event of the run holds it.
        let first = true;
        rewriteText = (t) => {
          // The event's text field: `text`, or `content` in the alternate shapes.
          const at = /"data":\{"(text|content)":"/.exec(t);
          if (!first || !at) return t;
          first = false;
          return t.replace(at[0], `${at[0]}\\n${text}\\n`);
        };
        // A site of its own: nothing waits there from an earlier run.
        const site = emu.control.addSites('ws_demo', { name: 'Deep Markdown' })[0]._id;
        const o = await cli(['chat', site, 'Add a changelog page with three entries'], 'tty');
        expect(o.stderr).not.toMatch(/call stack|Unexpected error/i);
        expect(o.code, o.stderr).toBe(0);
        expect(`${o.stdout}${o.stderr}`).toMatch(/\(Markdown with (quotes nested|over 1,000 emphasis|lists nested)/);
      } finally {
        rewriteText = before;
      }
    },
  );

  it('--json publish refused with deep data prints its JSON error, the data in it', async () => {
    planted = deep(LEVELS);
    emu.control.addFault({ method: 'publish_site', status: 409, message: 'A publish is already running.' });
    const o = await cli(['publish', 'site_bakery'], 'json');
    expect(o.code).not.toBe(0);
    const doc = JSON.parse(o.stderr) as { error: { message: string; data?: { deep?: unknown } } };
    expect(doc.error.message).toContain('A publish is already running.');
    // The refusal's data is in the document as the service sent it, 100,000 levels and all.
    let depth = 0;
    for (let v: unknown = doc.error.data?.deep; v && typeof v === 'object'; depth++)
      v = Array.isArray(v) ? v[0] : (v as { a: unknown }).a;
    expect(depth).toBe(LEVELS);
    planted = deep(20_000);
  });
});
