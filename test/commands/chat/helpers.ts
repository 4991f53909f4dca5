// Helpers for the chat command tests: the CLI in-process against an emulator sharing a
// FakeClock (the client's sleeps move emulated time, so runs progress without waiting), a
// scripted prompter, and Ctrl-C presses fired after a number of polls.
import { main } from '../../../src/cli.js';
import { type Clock, FakeClock } from '../../../src/clock.js';
import { createTestIO } from '../../../src/io/io.js';
import type { Choice, Prompter } from '../../../src/io/prompter.js';
import { InterruptedError } from '../../../src/errors.js';
import { ESC, type Interrupts } from '../../../src/interrupts.js';
import { DEMO_TOKENS, type RunningEmulator } from '../../../src/emulator/index.js';
import { rememberRun, runsScope } from '../../../src/config/runs.js';
import { applyAnswer, initialRunState, outcomeOf } from '../../../src/render/reducer.js';
import { readJobAnswer } from '../../../src/service/job.js';
import { readHistoryPage } from '../../../src/service/messages.js';
import { ConfigStore } from '../../../src/config/store.js';
import { tempConfigDir } from '../../helpers/run.js';

/** The environment of a CLI run against the emulator: its address, the full demo token, a fresh config. */
export function chatEnv(emu: RunningEmulator, configDir = tempConfigDir()): Record<string, string> {
  return {
    SITEBUILDER_BASE_URL: emu.baseUrl,
    SITEBUILDER_TOKEN: DEMO_TOKENS.full,
    NO_COLOR: '1',
    SITEBUILDER_CONFIG_DIR: configDir,
  };
}

export interface ChatRun {
  code: number;
  stdout: string;
  stderr: string;
  prompts: string[];
}

/** Answers prompts from a script: a string for input, a label (or a RegExp on it) for select. */
export class ScriptedPrompter implements Prompter {
  asked: string[] = [];
  constructor(private answers: Array<string | RegExp | null>) {}
  canPrompt() {
    return true;
  }
  require() {}
  private next(message: string): string | RegExp | null {
    this.asked.push(message);
    if (this.answers.length === 0) throw new Error(`No scripted answer for prompt: ${message}`);
    return this.answers.shift()!;
  }
  async input(message: string) {
    const a = this.next(message);
    if (a === null) throw new InterruptedError('Cancelled.');
    return String(a);
  }
  async password(message: string) {
    return this.input(message);
  }
  async confirm(message: string) {
    return this.next(message) === 'yes';
  }
  async select<T>(message: string, choices: Choice<T>[]): Promise<T> {
    const a = this.next(message);
    if (a === null) throw new InterruptedError('Cancelled.');
    const c = choices.find((x) => (a instanceof RegExp ? a.test(x.label) : x.label === a));
    if (!c) throw new Error(`No choice ${String(a)} among ${choices.map((x) => x.label).join(', ')}`);
    return c.value;
  }
  async multiselect<T>(): Promise<T[]> {
    return [];
  }
}

/**
 * A FakeClock that presses Ctrl-C on the given sleeps (1-based; twice when listed twice), and
 * Esc then `y` (cancel the run) on those of `cancelOn`.
 */
export class InterruptingClock extends FakeClock {
  private n = 0;
  constructor(
    private readonly interrupts: Interrupts,
    private readonly pressOn: number[],
    start?: number,
    private readonly cancelOn: number[] = [],
  ) {
    super(start);
  }
  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.n++;
    for (const at of this.cancelOn) if (at === this.n) pressCancel(this.interrupts);
    for (const at of this.pressOn) if (at === this.n) this.interrupts.fire();
    return super.sleep(ms, signal);
  }
}

/** Esc, then `y`: the keys that cancel a followed run (src/commands/shared/run/run-keys.ts). */
export function pressCancel(interrupts: Interrupts): void {
  interrupts.press(ESC);
  interrupts.press('y');
}

/**
 * The shared clock (the emulator's too), pressing Esc then `y` (cancel the run) on the given
 * sleeps (1-based), and Ctrl-C (stop following) on those of `stopOn`.
 */
export function cancellingOn(
  clock: FakeClock,
  interrupts: Interrupts,
  cancelOn: number[],
  stopOn: number[] = [],
): Clock {
  let n = 0;
  return {
    now: () => clock.now(),
    sleep: (ms, signal) => {
      n++;
      for (const at of cancelOn) if (at === n) pressCancel(interrupts);
      for (const at of stopOn) if (at === n) interrupts.fire();
      return clock.sleep(ms, signal);
    },
  };
}

/**
 * The shared clock (the emulator's too), pressing Ctrl-C on the given sleeps (1-based): emulated
 * time moves with the CLI's sleeps, so the request log's times are the CLI's.
 */
export function pressingOn(clock: FakeClock, interrupts: Interrupts, pressOn: number[]): Clock {
  let n = 0;
  return {
    now: () => clock.now(),
    sleep: (ms, signal) => {
      n++;
      for (const at of pressOn) if (at === n) interrupts.fire();
      return clock.sleep(ms, signal);
    },
  };
}

export interface ChatRunOptions {
  env: Record<string, string>;
  clock: Clock;
  tty?: boolean;
  /** The terminal's width (createTestIO's default otherwise). */
  columns?: number;
  prompter?: Prompter;
  interrupts?: Interrupts;
  stdin?: string;
}

export async function runCli(argv: string[], o: ChatRunOptions): Promise<ChatRun> {
  const io = createTestIO({ tty: o.tty ?? false, columns: o.columns });
  io.stdinStream.end(o.stdin ?? '');
  const prompter = o.prompter ?? new ScriptedPrompter([]);
  const code = await main(argv, {
    io,
    env: { SITEBUILDER_CONFIG_DIR: tempConfigDir(), ...o.env },
    clock: o.clock,
    prompter: o.tty || o.prompter ? prompter : undefined,
    signal: new AbortController().signal,
    interrupts: o.interrupts,
  });
  return {
    code,
    stdout: io.stdoutText(),
    stderr: io.stderrText(),
    prompts: prompter instanceof ScriptedPrompter ? prompter.asked : [],
  };
}

export function ndjson(text: string): any[] {
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Every event of a run as the service answers get_job from cursor 0 (over HTTP, as a client reads it). */
export async function jobEvents(emu: RunningEmulator, projectId: string, jobId: string): Promise<unknown[]> {
  const res = await fetch(`${emu.baseUrl}/v1/get_job`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ projectId, jobId, cursor: 0 }),
  });
  return ((await res.json()) as { data: { events: unknown[] } }).data.events;
}

/** The emulator's own view of a site's chat (control API, not the service): its latest run, what waits. */
export async function siteChat(
  emu: RunningEmulator,
  site: string,
): Promise<{ lastJobId: string | null; awaiting: string | null }> {
  const res = await fetch(`${emu.baseUrl}/_emulator/sites/${site}/chat`);
  return ((await res.json()) as { data: { lastJobId: string | null; awaiting: string | null } }).data;
}

/** A method of the service called over HTTP, as a client calls it: its `data`. */
async function callData(emu: RunningEmulator, method: string, args: Record<string, unknown>): Promise<unknown> {
  const res = await fetch(`${emu.baseUrl}/v1/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  return ((await res.json()) as { data: unknown }).data;
}

/**
 * "This machine has talked to the site before": the site's latest run (from the control API) is
 * among the runs known in the config dir, as if this CLI had started it long ago and followed it
 * to its end, seeing the history as it is now (src/config/runs.ts `seen`). Without it, the latest
 * run cannot be told (test/commands/chat/latest-run.test.ts).
 */
export async function knowLatestRun(emu: RunningEmulator, configDir: string, site: string): Promise<string> {
  const { lastJobId } = await siteChat(emu, site);
  if (!lastJobId) throw new Error(`${site} has no run yet`);
  // The two reads below are the set-up's, not the test's: a log that was empty is left empty.
  const logWasEmpty = emu.control.log().length === 0;
  const run = applyAnswer(
    initialRunState(lastJobId),
    readJobAnswer(await callData(emu, 'get_job', { projectId: site, jobId: lastJobId, cursor: 0 })),
  ).state;
  const { prints } = readHistoryPage(await callData(emu, 'list_messages', { projectId: site }));
  if (logWasEmpty) emu.control.clearLog();
  await rememberRun(new ConfigStore(configDir), runsScope('default', emu.baseUrl), site, {
    jobId: lastJobId,
    startedAt: 1,
    seen: { outcome: outcomeOf(run), at: 1, prints },
  });
  return lastJobId;
}

/** Shell words of a printed command (POSIX single quotes, as shellQuote writes them). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const m of command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) {
    words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]);
  }
  return words;
}
