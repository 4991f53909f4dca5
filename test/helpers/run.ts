// Runs the CLI in-process: main(argv) over a buffered IO, with a temp config dir and a fake clock.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { FakeClock, type Clock } from '../../src/clock.js';
import { createTestIO } from '../../src/io/io.js';
import type { Prompter } from '../../src/io/prompter.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  tty?: boolean;
  /** Terminal width (createTestIO's default otherwise). */
  columns?: number;
  stdin?: string;
  clock?: Clock;
  prompter?: Prompter;
  signal?: AbortSignal;
  configDir?: string;
  /** More of the IO's make-up (stderr a terminal, stdout a pipe…), over `tty` and `columns`. */
  io?: Parameters<typeof createTestIO>[0];
}

export function tempConfigDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'sitebuilder-test-')), 'config');
}

export async function run(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  const io = createTestIO({ tty: opts.tty ?? false, columns: opts.columns, ...opts.io });
  if (opts.stdin !== undefined) io.stdinStream.end(opts.stdin);
  else io.stdinStream.end();
  const env = { SITEBUILDER_CONFIG_DIR: opts.configDir ?? tempConfigDir(), ...opts.env };
  const code = await main(argv, {
    io,
    env,
    clock: opts.clock ?? new FakeClock(),
    prompter: opts.prompter,
    signal: opts.signal ?? new AbortController().signal,
  });
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}
