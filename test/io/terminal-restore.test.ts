// The one place that gives the terminal back (src/io/terminal-restore.ts): raw mode left, the live
// block cleared, a line cut short (a prompt on the screen) ended, the cursor shown; and the
// signal listeners a library adds behind a prompt removed, so that a signal takes the one way out.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestIO } from '../../src/io/io.js';
import {
  dropSignalListenersSince,
  markPrompt,
  restoreTerminal,
  signalListeners,
} from '../../src/io/terminal-restore.js';

function terminal() {
  const io = createTestIO({ tty: true, columns: 40, rows: 10 });
  const calls: boolean[] = [];
  Object.assign(io.stdinStream, { isRaw: true, setRawMode: (raw: boolean) => calls.push(raw) });
  return { io, calls };
}

describe('restoreTerminal', () => {
  it('leaves raw mode, clears the live block, ends the prompt’s line and shows the cursor', () => {
    const { io, calls } = terminal();
    io.liveBlock(['Publishing site_bakery', '⠋ building']);
    markPrompt(io, true);
    restoreTerminal(io);
    expect(calls).toEqual([false]);
    const out = io.stderrText();
    expect(out.endsWith('\n\u001b[?25h')).toBe(true);
    // The block was erased (its rows cleared) before the line was ended.
    expect(out).toContain('\r\u001b[2K');
  });

  it('ends a line our own writer left open, and nothing more when there is none', () => {
    const { io } = terminal();
    io.err('Loading the sites…');
    restoreTerminal(io);
    expect(io.stderrText()).toBe('Loading the sites…\n\u001b[?25h');
    const { io: clean } = terminal();
    clean.errLine('done');
    restoreTerminal(clean);
    expect(clean.stderrText()).toBe('done\n\u001b[?25h');
  });

  it('writes nothing to what is not a terminal', () => {
    const io = createTestIO();
    markPrompt(io, true);
    restoreTerminal(io);
    expect(io.stderrText()).toBe('');
  });
});

describe('dropSignalListenersSince', () => {
  const added: Array<[NodeJS.Signals, NodeJS.SignalsListener]> = [];
  afterEach(() => {
    for (const [s, l] of added.splice(0)) process.off(s, l);
  });

  it('removes the listeners a library added, and keeps those that were there', () => {
    const ours = () => {};
    process.on('SIGTERM', ours);
    added.push(['SIGTERM', ours]);
    const before = signalListeners();
    const theirs = () => process.exit(143);
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(s, theirs);
      added.push([s, theirs]);
    }
    dropSignalListenersSince(before);
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) expect(process.listeners(s)).not.toContain(theirs);
    expect(process.listeners('SIGTERM')).toContain(ours);
  });
});
