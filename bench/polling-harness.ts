// The measured part of bench/polling.mjs (bundled by it with esbuild): the CLI in-process
// against an emulator, both on one FakeClock, so minutes of emulated time take milliseconds and
// every time below is exact emulated time. What it measures: get_job calls per busy and per idle
// minute, the shortest gap between two polls of a run, the delay from an agent event to its first
// word on a terminal (the pretty view plays each answer back over the wait), and the calls a
// message costs before its send_message.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli.js';
import { FakeClock } from '../src/clock.js';
import { rememberRun, runsScope } from '../src/config/runs.js';
import { ConfigStore } from '../src/config/store.js';
import { readHistoryPage } from '../src/service/messages.js';
import { DEMO_TOKENS, startEmulator } from '../src/emulator/index.js';
import { createTestIO } from '../src/io/io.js';
import { REWRITE_ROW } from '../src/io/live-block.js';

const SITE = 'site_bakery';

type Shapes = 'default' | 'alternate';

async function setup(shapes: Shapes = 'default') {
  const clock = new FakeClock();
  const emu = await startEmulator({ port: 0, clock, shapes });
  const configDir = join(mkdtempSync(join(tmpdir(), 'sitebuilder-bench-config-')), 'config');
  const env = {
    SITEBUILDER_BASE_URL: emu.baseUrl,
    SITEBUILDER_TOKEN: DEMO_TOKENS.full,
    SITEBUILDER_CONFIG_DIR: configDir,
    NO_COLOR: '1',
  };
  // A machine that has chatted with the site before: it followed the site's latest run to its
  // end here and saw the history then, so what waits is known (docs/real-service.md "What waits
  // on a site"). The history is read as a client reads it; the log starts after it.
  const chat = (await (await fetch(`${emu.baseUrl}/_emulator/sites/${SITE}/chat`)).json()) as {
    data: { lastJobId: string };
  };
  const history = (await (
    await fetch(`${emu.baseUrl}/v1/list_messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEMO_TOKENS.full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: SITE }),
    })
  ).json()) as { data: unknown };
  await rememberRun(new ConfigStore(configDir), runsScope('default', emu.baseUrl), SITE, {
    jobId: chat.data.lastJobId,
    startedAt: 1,
    seen: { outcome: 'succeeded', at: 1, prints: readHistoryPage(history.data).prints },
  });
  emu.control.clearLog();
  const cli = async (argv: string[], o: { tty?: boolean; onWrite?: (text: string) => void } = {}) => {
    // A terminal: stdout and stderr both (only a terminal's stderr lets rows be redrawn); no prompt.
    const io = createTestIO({
      tty: o.tty ?? false,
      stdinTTY: false,
      stderrTTY: o.tty ?? false,
      columns: 100,
      rows: 40,
    });
    io.stdinStream.end();
    if (o.onWrite) io.stdout.on('data', (c: Buffer) => o.onWrite?.(c.toString('utf8')));
    const code = await main(argv, { io, env, clock, signal: new AbortController().signal });
    return { code, stdout: io.stdoutText() };
  };
  const pollTimes = (jobId: string) =>
    emu.control
      .log({ method: 'get_job' })
      .filter((e) => (e.args as { jobId?: string }).jobId === jobId)
      .map((e) => Date.parse(e.time));
  return { clock, emu, cli, pollTimes };
}

const gapsOf = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** get_job calls following an idle run (stalled, no events) for `seconds` emulated seconds. */
export async function idleRun(seconds = 60) {
  const { clock, emu, cli, pollTimes } = await setup();
  try {
    const started = await cli(['chat', SITE, 'Add opening hours to the home page #stall:600', '--no-follow', '--json']);
    const jobId = JSON.parse(started.stdout).jobId as string;
    clock.advance(2_000); // past the opening words: from here on nothing happens
    const r = await cli(['job', 'watch', SITE, jobId, '--timeout', `${seconds}s`, '--json']);
    return {
      seconds,
      calls: pollTimes(jobId).length,
      minGapMs: Math.min(...gapsOf(pollTimes(jobId))),
      exitCode: r.code,
    };
  } finally {
    await emu.close();
  }
}

/** get_job calls in the first minute of a long busy run (an event every few seconds, for minutes). */
export async function busyMinute() {
  const { emu, cli, pollTimes } = await setup();
  try {
    const r = await cli(['chat', SITE, 'Add every page you can think of #long', '--json']);
    const jobId = JSON.parse(r.stdout.trim().split('\n')[0]).jobId as string;
    const times = pollTimes(jobId);
    const inFirstMinute = times.filter((t) => t < times[0] + 60_000).length;
    return { calls: inFirstMinute, minGapMs: Math.min(...gapsOf(times)), totalCalls: times.length, exitCode: r.code };
  } finally {
    await emu.close();
  }
}

/**
 * A terminal's rows from the bytes written, and when each word of each row first showed: the
 * playback's only cursor move is REWRITE_ROW (rewrite the last row, longer).
 */
class Screen {
  rows: string[] = [];
  firstSeen: number[][] = [];
  write(text: string, at: number): void {
    // The playback's cursor moves: rewrite the last row (REWRITE_ROW), or the last N ("ESC[NA CR ESC[J").
    const moves = new RegExp(`${REWRITE_ROW.replace(/[[\]]/g, '\\$&')}|\u001b\\[(\\d+)A\\r\\u001b\\[J`, 'g');
    let from = 0;
    const parts: Array<{ up: number; text: string }> = [];
    let up = 0;
    for (const m of text.matchAll(moves)) {
      parts.push({ up, text: text.slice(from, m.index) });
      up = m[1] ? Number(m[1]) : 1;
      from = m.index + m[0].length;
    }
    parts.push({ up, text: text.slice(from) });
    for (const { up: n, text: part } of parts) {
      for (let k = 0; k < n; k++) this.rows.pop();
      for (const row of part.split('\n').slice(0, -1)) {
        const r = this.rows.push(row) - 1;
        const seen = (this.firstSeen[r] ??= []);
        row
          .split(/\s+/)
          .filter(Boolean)
          .forEach((_, k) => {
            seen[k] ??= at;
          });
      }
    }
  }
}

/** A word as it shows: its letters and digits (Markdown's markers are not printed). */
const bare = (w: string) => w.replace(/[^\p{L}\p{N}]/gu, '');

/** On a terminal: the delay from each text event's creation to its first word on the screen. */
export async function firstWordDelays(prompt: string) {
  const { clock, emu, cli, pollTimes } = await setup();
  try {
    const screen = new Screen();
    const r = await cli(['chat', SITE, ...prompt.split('\u0000')], {
      tty: true,
      onWrite: (t) => screen.write(t, clock.now()),
    });
    const jobs = (
      emu.emulator.slice('chat') as {
        jobs: Record<
          string,
          { startedAt: number; script: { events: Array<{ at: number; event: string; data: { text?: string } }> } }
        >;
      }
    ).jobs;
    const [jobId, job] = Object.entries(jobs).sort(([, a], [, b]) => b.startedAt - a.startedAt)[0];
    // Walk the text events' words along the screen's rows. The screen shows the agent's Markdown
    // rendered: a word is matched by its letters and digits (a marker such as `##`, `-` or `|`
    // has none), from its start (a piece may end mid-word; the rest of that word, in the next
    // piece, is not a word of its own). An event's first word is looked for as far ahead as the
    // screen goes: between two texts of a build the CLI prints its own rows (each step, each file
    // written), any number of them. A later word that does not show (a fence's language) is
    // looked for a few rows ahead only. An event whose words never show is counted, not dropped.
    const words = screen.rows.map((row) => row.split(/\s+/).map(bare).filter(Boolean));
    let row = 0;
    let word = 0;
    let before = '\n';
    const delays: number[] = [];
    let unseen = 0;
    for (const ev of job.script.events) {
      if (ev.event !== 'text') continue;
      const text = ev.data.text ?? '';
      let first = true;
      let eventWords = 0;
      for (const m of text.matchAll(/\S+/g)) {
        const starts = m.index > 0 ? /\s/.test(text[m.index - 1] as string) : /\s/.test(before);
        // Its first run of letters and digits: a link's text and its address are one word of the
        // source (`element](https://…`) but two on the screen.
        const w = m[0].match(/[\p{L}\p{N}]+/u)?.[0];
        if (!starts || !w) continue;
        eventWords++;
        let r = row;
        let k = word;
        let found = false;
        while (r < words.length && (first || r <= row + 3)) {
          const at = words[r].findIndex((x, i) => i >= k && x.startsWith(w));
          if (at >= 0) {
            found = true;
            k = at;
            break;
          }
          r++;
          k = 0;
        }
        if (!found) continue;
        if (first) delays.push(screen.firstSeen[r][k] - (job.startedAt + ev.at));
        first = false;
        row = r;
        word = k + 1;
      }
      if (first && eventWords > 0) unseen++;
      before = text.at(-1) ?? before;
    }
    const times = pollTimes(jobId);
    return {
      textEvents: delays.length,
      /** Text events with a word of their own that the walk did not find on the screen. */
      unseen,
      runMs: Math.max(...job.script.events.map((e) => e.at)),
      calls: times.length,
      medianDelayMs: median(delays),
      maxDelayMs: Math.max(...delays),
      maxGapMs: Math.max(...gapsOf(times)),
      exitCode: r.code,
    };
  } finally {
    await emu.close();
  }
}

/** What a message costs before its send_message, on a site whose latest run is known here. */
export async function callsBeforeSend(shapes: Shapes) {
  const { emu, cli } = await setup(shapes);
  try {
    await cli(['chat', SITE, 'Add a gallery page please', '--no-follow']);
    const log = emu.control.log();
    const before = log.slice(
      0,
      log.findIndex((e) => e.method === 'send_message'),
    );
    const count = (m: string) => before.filter((e) => e.method === m).length;
    return { shapes, listMessages: count('list_messages'), getJob: count('get_job'), total: before.length };
  } finally {
    await emu.close();
  }
}
