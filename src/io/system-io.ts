// The IO object over the process's own streams (io.ts is the object; tests build one over
// buffers with createTestIO). What is costly to ask (stdin's TTY-ness, whether stdout is a pipe)
// is asked only when something needs it.
import { fstatSync } from 'node:fs';
import { decideColorLevel } from './color-level.js';
import { IO } from './io.js';

/**
 * Whether a file descriptor is a pipe (or a socket, as some shells and process spawners make
 * for `|`): a program reads it, and may print what it reads to the terminal stderr is on.
 */
export function isPipe(fd: number): boolean {
  try {
    const s = fstatSync(fd);
    return s.isFIFO() || s.isSocket();
  } catch {
    return false;
  }
}

export function systemIO(env: Record<string, string | undefined>, noColorFlag: boolean): IO {
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  const streams = {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
  };
  const io = new IO(streams, decideColorLevel({ env, stdoutIsTTY, noColorFlag }), {
    stdin: () =>
      (process.getBuiltinModule?.('node:tty') ?? (require('node:tty') as typeof import('node:tty'))).isatty(0),
    stdout: stdoutIsTTY,
    stderr: Boolean(process.stderr.isTTY),
    stdoutPipe: () => isPipe(1),
  });
  io.cursorMoves = env.TERM !== 'dumb';
  return io;
}
