// A world for a journey: one emulator (default shapes or a random seed) on a fake clock the CLI
// shares, Dana's configuration directory, the CLI run in-process as a script runs it (no
// terminal), and what each run printed. A world can be forked at any point (the emulator's
// state, the clock and the configuration copied), so a printed command is tried without
// changing the journey. Ids are compared across worlds in a canonical form (`job#12`): both
// emulators make the n-th id of a kind for the same call.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { methodInfo } from '../../src/api/method-index.js';
import { main } from '../../src/cli.js';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { Arguments } from '../../src/emulator/shapes/random/arguments.js';
import { Draw } from '../../src/emulator/shapes/random/draw.js';
import type { RandomShapes } from '../../src/emulator/shapes/random/index.js';
import { randomId } from '../../src/emulator/shapes/random/values.js';
import type { ShapesName } from '../../src/emulator/shapes/types.js';
import type { EmulatorState } from '../../src/emulator/state.js';
import { rememberRun, runsScope } from '../../src/config/runs.js';
import { ConfigStore } from '../../src/config/store.js';
import { createTestIO } from '../../src/io/io.js';
import { applyAnswer, initialRunState, outcomeOf } from '../../src/render/reducer.js';
import { readJobAnswer } from '../../src/service/job.js';
import { readHistoryPage } from '../../src/service/messages.js';

export const START = Date.UTC(2026, 10, 22, 12, 0, 0);
const KNOWN_SITES = ['site_bakery', 'site_portfolio', 'site_docs'];

export interface CliRun {
  argv: string[];
  code: number;
  stdout: string;
  stderr: string;
}

export interface Write {
  method: string;
  args: unknown;
}

/** A world kept at a point: fork() starts a world apart from there. */
export type Forkable = Pick<World, 'fork' | 'close'>;

/** A copy of a configuration directory, in a directory of its own. */
function copyConfig(from: string): string {
  const configDir = join(mkdtempSync(join(tmpdir(), 'sb-fuzz-')), 'config');
  cpSync(from, configDir, { recursive: true });
  return configDir;
}

export class World {
  readonly runs: CliRun[] = [];
  /** The last id table, and the counters it was made from. */
  private ids?: { counters: string; table: Map<string, string> };

  private constructor(
    readonly shapes: ShapesName,
    readonly clock: FakeClock,
    readonly emu: RunningEmulator,
    readonly configDir: string,
  ) {}

  /**
   * A fresh emulator, and Dana's machine that has talked to the demo sites before: their latest
   * runs are among the runs known here, as if this CLI had started them long ago and followed
   * them to their end, seeing the history as it is now (src/config/runs.ts `seen`; read over
   * HTTP as the CLI reads it, in this world's shapes).
   */
  static async start(shapes: ShapesName): Promise<World> {
    const clock = new FakeClock(START);
    const emu = await startEmulator({ port: 0, clock, shapes });
    const world = new World(shapes, clock, emu, join(mkdtempSync(join(tmpdir(), 'sb-fuzz-')), 'config'));
    const store = new ConfigStore(world.configDir);
    for (const site of KNOWN_SITES) {
      const jobId = world.chat(site).lastJobId!;
      const job = await world.api('get_job', { projectId: site, jobId, cursor: 0 }, DEMO_TOKENS.full);
      const page = await world.api('list_messages', { projectId: site }, DEMO_TOKENS.full);
      const outcome = outcomeOf(applyAnswer(initialRunState(jobId), readJobAnswer(job.body.data)).state);
      const { prints } = readHistoryPage(page.body.data);
      await rememberRun(store, runsScope('default', emu.baseUrl), site, {
        jobId,
        startedAt: 1,
        seen: { outcome, at: 1, prints },
      });
    }
    emu.control.clearLog();
    return world;
  }

  /** The same world, apart: its emulator's state, its time and Dana's configuration copied. */
  async fork(): Promise<World> {
    return World.resume(this.shapes, this.clock.now(), structuredClone(this.emu.emulator.snapshot()), this.configDir);
  }

  /**
   * The world as it is now, kept apart with no emulator running: each fork() of it is a world
   * apart from that point (most points kept are never tried, so none starts an emulator).
   */
  freeze(): Forkable {
    const { shapes } = this;
    const [now, state] = [this.clock.now(), structuredClone(this.emu.emulator.snapshot())];
    const configDir = copyConfig(this.configDir);
    return {
      fork: () => World.resume(shapes, now, structuredClone(state), configDir),
      close: async () => rmSync(dirname(configDir), { recursive: true, force: true }),
    };
  }

  /** A world on an emulator started from `state` at `now`, with a copy of the configuration `configFrom`. */
  private static async resume(shapes: ShapesName, now: number, state: EmulatorState, configFrom: string) {
    const clock = new FakeClock(now);
    const emu = await startEmulator({ port: 0, clock, shapes, state });
    return new World(shapes, clock, emu, copyConfig(configFrom));
  }

  get random(): RandomShapes | undefined {
    return this.shapes.startsWith('random:') ? (this.emu.emulator.shapes as RandomShapes) : undefined;
  }

  /** The environment of Dana's commands: this emulator, her full-scope token, her configuration. */
  env(): Record<string, string> {
    return {
      SITEBUILDER_BASE_URL: this.emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      SITEBUILDER_CONFIG_DIR: this.configDir,
      NO_COLOR: '1',
    };
  }

  /** A command as a script runs it: no terminal, stdin empty (or the text given). */
  async cli(argv: string[], stdin = ''): Promise<CliRun> {
    const io = createTestIO({ tty: false });
    io.stdinStream.end(stdin);
    let code: number;
    try {
      code = await main(argv, { io, env: this.env(), clock: this.clock, signal: new AbortController().signal });
    } catch (err) {
      // main() never throws; if it does, the run says so as a stack trace would.
      code = 99;
      io.errLine(`Unexpected error: ${(err as Error)?.stack ?? String(err)}`);
    }
    const run = { argv, code, stdout: io.stdoutText(), stderr: io.stderrText() };
    this.runs.push(run);
    return run;
  }

  /** A call of another client (Sam, the teammate, by default), straight over HTTP. */
  async api(method: string, args: Record<string, unknown>, token: string = DEMO_TOKENS.teammate) {
    const res = await fetch(`${this.emu.baseUrl}/v1/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    return { status: res.status, body: (await res.json()) as { data: any; message: string } };
  }

  /** The site's latest run and what waits, as the emulator knows them (not the service's answer). */
  chat(site: string): { lastJobId: string | null; activeJobId: string | null; queue: Array<{ queueItemId: string }> } {
    return (this.emu.emulator.state.domains.chat as any).sites[site];
  }

  /** Every run's id, as the emulator made it. */
  jobIds(): string[] {
    return Object.keys((this.emu.emulator.state.domains.chat as any).jobs);
  }

  /** Everything the CLI printed in this world so far (stdout and stderr of every run). */
  output(): string {
    return this.runs.map((r) => `${r.stdout}\n${r.stderr}`).join('\n');
  }

  /** The request log's successful writes from `since` on, canonical: ids as `kind#n`, our argument names, no address. */
  writes(since = 0): Write[] {
    return this.emu.control
      .log({ since })
      .filter((e) => e.method && methodInfo(e.method)?.write && e.status < 300)
      .map((e) => ({ method: e.method!, args: this.canonical(this.ourNames(e.method!, e.args)) }));
  }

  /** The write methods called from `since` on, whatever the answer (a write the service refused was still sent). */
  attempts(since = 0): string[] {
    return this.emu.control
      .log({ since })
      .filter((e) => e.method && methodInfo(e.method)?.write)
      .map((e) => e.method!);
  }

  /** The log's last sequence number (the `since` of what follows). */
  seq(): number {
    return this.emu.control.log().at(-1)?.seq ?? 0;
  }

  private ourNames(method: string, args: unknown): unknown {
    const seed = this.random?.seed;
    if (seed === undefined || !args || typeof args !== 'object') return args;
    const out = { ...(args as Record<string, unknown>) };
    for (const c of new Arguments(new Draw(seed)).of(method)?.choices ?? []) {
      if (c.theirs === c.ours || !(c.theirs in out)) continue;
      out[c.ours] ??= out[c.theirs];
      delete out[c.theirs];
    }
    return out;
  }

  /** A value with this world's ids and address in a form both worlds share. */
  canonical<T>(value: T): T {
    const ids = this.idTable();
    const text = (s: string) => {
      let out = s.replaceAll(this.emu.baseUrl, 'BASE');
      out = out.replace(/\b([a-z]+)_(\d{6})\b/g, (m, p: string, n: string) => (this.random ? m : `${p}#${Number(n)}`));
      for (const [id, c] of ids) if (out.includes(id)) out = out.replaceAll(id, c);
      return out;
    };
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return text(v);
      if (typeof v === 'number') return ids.get(String(v)) ?? v;
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    return walk(value) as T;
  }

  /** A canonical value back in this world's ids. */
  local<T>(value: T): T {
    const ids = this.idTable();
    const back = new Map([...ids].map(([id, c]) => [c, id]));
    const text = (s: string) =>
      s
        .replaceAll('BASE', this.emu.baseUrl)
        .replace(/\b([a-z]+)#(\d+)\b/g, (m, p: string, n: string) =>
          this.random ? (back.get(m) ?? m) : `${p}_${n.padStart(6, '0')}`,
        );
    const walk = (v: unknown): unknown => (typeof v === 'string' ? text(v) : Array.isArray(v) ? v.map(walk) : v);
    return walk(value) as T;
  }

  /** The random shapes' ids made so far → `kind#n` (from the state's counters). */
  private idTable(): Map<string, string> {
    const seed = this.random?.seed;
    if (seed === undefined) return new Map();
    // Worked out again only once the counters moved (each id is a hash: about 1 ms a table).
    const counters = JSON.stringify(this.emu.emulator.state.counters);
    if (this.ids?.counters === counters) return this.ids.table;
    const draw = new Draw(seed);
    const table = new Map<string, string>();
    for (const [prefix, count] of Object.entries(this.emu.emulator.state.counters))
      for (let n = 1; n <= count; n++) table.set(randomId(draw, prefix, n), `${prefix}#${n}`);
    this.ids = { counters, table };
    return table;
  }

  /** Stops the emulator and removes the configuration directory. */
  async close(): Promise<void> {
    await this.emu.close();
    rmSync(dirname(this.configDir), { recursive: true, force: true });
  }
}
