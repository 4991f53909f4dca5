// The measured part of bench/polling.mjs (bundled by it with esbuild): the CLI in-process
// against an emulator, both on one FakeClock, so 60 emulated seconds take milliseconds and
// every time below is exact emulated time.
import { main } from '../src/cli.js';
import { FakeClock } from '../src/clock.js';
import { DEMO_TOKENS, startEmulator } from '../src/emulator/index.js';
import { createTestIO } from '../src/io/io.js';

const SITE = 'site_bakery';

async function setup() {
  const clock = new FakeClock();
  const emu = await startEmulator({ port: 0, clock });
  const env = {
    SITEBUILDER_BASE_URL: emu.baseUrl,
    SITEBUILDER_TOKEN: DEMO_TOKENS.full,
    SITEBUILDER_CONFIG_DIR: '/nonexistent-sitebuilder-bench',
    NO_COLOR: '1',
  };
  const cli = async (argv: string[], onLine?: (line: string) => void) => {
    const io = createTestIO();
    io.stdinStream.end();
    let buf = '';
    io.stdout.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const l of lines) onLine?.(l);
    });
    const code = await main(argv, { io, env, clock, signal: new AbortController().signal });
    return { code, stdout: io.stdoutText() };
  };
  return { clock, emu, cli };
}

/** Calls made following an idle run (stalled, no events) for 60 emulated seconds. */
export async function idleRun(seconds = 60) {
  const { clock, emu, cli } = await setup();
  try {
    const started = await cli(['chat', SITE, 'Add opening hours to the home page #stall:600', '--no-follow', '--json']);
    const jobId = JSON.parse(started.stdout).jobId as string;
    clock.advance(2_000); // past the opening words: from here on nothing happens
    const since = emu.control.log().at(-1)?.seq ?? 0;
    const t0 = clock.now();
    const r = await cli(['job', 'watch', SITE, jobId, '--timeout', `${seconds}s`, '--json']);
    const calls = emu.control.log({ method: 'get_job', since }).length;
    return {
      seconds,
      calls,
      followedMs: clock.now() - t0,
      exitCode: r.code,
      state: (JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { state: string }).state,
    };
  } finally {
    await emu.close();
  }
}

/** On a busy run, the delay from each event's creation to its print, against the poll interval in force. */
export async function busyRun(prompt: string) {
  const { clock, emu, cli } = await setup();
  try {
    const printed: Array<{ at: number; sleep: number }> = [];
    const r = await cli(['chat', SITE, prompt, '--json'], (line) => {
      const doc = JSON.parse(line) as { event?: string };
      if (doc.event) printed.push({ at: clock.now(), sleep: clock.sleeps.at(-1) ?? 0 });
    });
    const end = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { jobId: string };
    const job = (
      emu.emulator.slice('chat') as {
        jobs: Record<string, { startedAt: number; script: { events: Array<{ at: number }> } }>;
      }
    ).jobs[end.jobId];
    const created = job.script.events.map((e) => job.startedAt + e.at);
    const delays = printed.map((p, i) => ({ delay: p.at - created[i], interval: p.sleep }));
    const sorted = delays.map((d) => d.delay).sort((a, b) => a - b);
    return {
      events: delays.length,
      runMs: created.at(-1)! - job.startedAt,
      calls: emu.control.log({ method: 'get_job' }).length,
      medianDelayMs: sorted[Math.floor(sorted.length / 2)],
      maxDelayMs: sorted.at(-1)!,
      maxIntervalMs: Math.max(...delays.map((d) => d.interval)),
      withinOneInterval: delays.every((d) => d.delay <= d.interval),
      exitCode: r.code,
    };
  } finally {
    await emu.close();
  }
}
