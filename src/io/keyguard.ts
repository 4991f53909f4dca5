// While a run is followed in a terminal, keys typed ahead must never answer the question that
// may come at the end, nor scribble over the transcript. So stdin goes into raw mode and its
// bytes are swallowed; Ctrl-C then arrives as a byte (no SIGINT in raw mode) and is routed to
// the Interrupts hub. release() puts the terminal back exactly as it was found.
import type { Interrupts } from '../interrupts.js';
import type { IO } from './io.js';

export interface KeyGuard {
  release(): void;
}

const CTRL_C = 0x03;

export function guardKeys(io: IO, interrupts: Interrupts): KeyGuard {
  const stdin = io.stdin as IO['stdin'] & { isRaw?: boolean };
  const setRawMode = stdin.setRawMode?.bind(stdin);
  if (!io.stdinIsTTY || !setRawMode) return { release() {} };
  const wasRaw = Boolean(stdin.isRaw);
  // readableFlowing is null for a stdin nobody read yet; isPaused() would say false for it.
  const wasFlowing = stdin.readableFlowing === true;
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (const b of bytes) if (b === CTRL_C) interrupts.fire();
  };
  setRawMode(true);
  stdin.on('data', onData);
  stdin.resume();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      stdin.off('data', onData);
      if (!wasFlowing) stdin.pause();
      // Whatever is still buffered was typed during the run: drop it.
      while (stdin.read() !== null) {
        /* discard */
      }
      setRawMode(wasRaw);
    },
  };
}
