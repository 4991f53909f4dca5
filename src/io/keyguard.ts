// Keys typed ahead never answer a question they were not typed for. While a run is followed (or
// a list loads) in a terminal, stdin is in raw mode and its bytes are taken here: they neither
// echo over the transcript nor wait in the terminal for the next prompt. Ctrl-C arrives as a
// byte then (no SIGINT in raw mode) and is routed to the Interrupts hub, or raised as SIGINT when
// nothing takes it. Keys are offered to the hub first (a lone Esc, and every key while a question
// about the run is on the screen: commands/shared/run/follow.ts). The text typed is kept, per IO: the
// conversation's next message prompt shows it as typed (takeTypeAhead); every other prompt drops it. Before any prompt is shown, what the
// terminal still holds is drained (drainPending), so a key typed before the prompt appeared is
// never its answer. release() puts the terminal back exactly as it was found.
import { readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { ESC, type Interrupts } from '../interrupts.js';
import type { IO } from './io.js';

export interface KeyGuard {
  /** Whether keys are guarded at all (a terminal's stdin). */
  readonly active: boolean;
  release(): void;
}

export interface GuardOptions {
  /** Called when text typed meanwhile is first kept, once per guard. */
  onTyped?: () => void;
  /** Called with the text typed so far after every key that is kept as text. */
  onTyping?: (text: string) => void;
}

const CTRL_C = 0x03;

type RawStdin = IO['stdin'] & { isRaw?: boolean; fd?: number };

/**
 * Typed keys as text: printable characters kept, Backspace deletes one, Ctrl-U the line, Ctrl-W
 * a word; Enter ends a line (the lines are joined with a space: a prompt takes one line); escape
 * sequences (arrows, function keys) and other controls are dropped.
 */
export class TypedText {
  private text = '';
  private escape: 'none' | 'esc' | 'csi' | 'ss3' = 'none';
  private readonly decoder = new StringDecoder('utf8');

  feed(bytes: Uint8Array): void {
    for (const ch of this.decoder.write(bytes)) this.key(ch);
  }

  private key(ch: string): void {
    const code = ch.codePointAt(0) ?? 0;
    if (this.escape === 'esc') {
      this.escape = ch === '[' ? 'csi' : ch === 'O' ? 'ss3' : 'none';
      return;
    }
    if (this.escape === 'csi') {
      if (code >= 0x40 && code <= 0x7e) this.escape = 'none';
      return;
    }
    if (this.escape === 'ss3') {
      this.escape = 'none';
      return;
    }
    if (code === 0x1b) this.escape = 'esc';
    else if (ch === '\r' || ch === '\n') {
      if (this.text && !this.text.endsWith(' ')) this.text += ' ';
    } else if (code === 0x7f || code === 0x08) this.text = [...this.text].slice(0, -1).join('');
    else if (code === 0x15) this.text = '';
    else if (code === 0x17) this.text = this.text.replace(/\S+\s*$/, '');
    else if (ch === '\t') this.text += ' ';
    else if (code >= 0x20 && !(code >= 0x80 && code < 0xa0)) this.text += ch;
  }

  /** The text typed so far, left in place. */
  peek(): string {
    return this.text.trim();
  }

  take(): string {
    const t = this.text.trim();
    this.text = '';
    return t;
  }
}

/** The text typed while keys were guarded, per IO, until the message prompt takes it. */
const held = new WeakMap<IO, string>();

const hold = (io: IO, text: string) => {
  if (!text) return;
  const before = held.get(io);
  held.set(io, before ? `${before} ${text}` : text);
};

/** The text typed ahead while keys were guarded, once: the next message prompt's initial text. */
export function takeTypeAhead(io: IO): string {
  const text = held.get(io) ?? '';
  held.delete(io);
  return text;
}

/** Keeps `text` for the next message prompt, after what is kept already (a line put back). */
export const keepTypeAhead = (io: IO, text: string): void => hold(io, text.trim());

/** What was typed ahead, left where it is. */
export const peekTypeAhead = (io: IO): string => held.get(io) ?? '';

/** Forgets what was typed ahead (a conversation starts afresh). */
export const forgetTypeAhead = (io: IO): void => void held.delete(io);

/**
 * Empties what the terminal holds for us, now: the stream's buffer, then the descriptor itself
 * (a TTY's descriptor is non-blocking in Node: a read answers EAGAIN when nothing waits). Raw
 * mode first, so a line typed without Enter is readable too. Answers the bytes drained.
 */
export function drainPending(io: IO): Buffer {
  const stdin = io.stdin as RawStdin;
  if (!io.stdinIsTTY || !stdin.setRawMode) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  const wasRaw = Boolean(stdin.isRaw);
  if (!wasRaw) stdin.setRawMode(true);
  try {
    for (let chunk = stdin.read(); chunk !== null; chunk = stdin.read())
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    if (typeof stdin.fd === 'number') {
      const buf = Buffer.alloc(4096);
      for (let i = 0; i < 64; i++) {
        let n: number;
        try {
          n = readSync(stdin.fd, buf, 0, buf.length, null);
        } catch {
          break; // EAGAIN: nothing more waits
        }
        if (n <= 0) break;
        chunks.push(Buffer.from(buf.subarray(0, n)));
      }
    }
  } finally {
    if (!wasRaw) stdin.setRawMode(false);
  }
  return Buffer.concat(chunks);
}

/** Ctrl-C while guarded: the hub's handler, else the process's own (core/run.ts), as a real Ctrl-C. */
const interrupt = (interrupts: Interrupts) => {
  if (!interrupts.fire()) process.kill(process.pid, 'SIGINT');
};

/** A chunk that is Esc alone (a terminal sends an escape sequence, an arrow key, in one piece). */
const isEscape = (bytes: Uint8Array) => bytes.length > 0 && bytes.length <= 2 && bytes.every((b) => b === 0x1b);

export function guardKeys(io: IO, interrupts: Interrupts, opts: GuardOptions = {}): KeyGuard {
  const stdin = io.stdin as RawStdin;
  const setRawMode = stdin.setRawMode?.bind(stdin);
  if (!io.stdinIsTTY || !setRawMode) return { active: false, release() {} };
  const wasRaw = Boolean(stdin.isRaw);
  // readableFlowing is null for a stdin nobody read yet; isPaused() would say false for it.
  const wasFlowing = stdin.readableFlowing === true;
  const typed = new TypedText();
  let said = false;
  /** Keys other than Ctrl-C: offered to the hub, else kept as text. */
  const keys = (bytes: Uint8Array) => {
    if (bytes.length === 0) return;
    if (isEscape(bytes)) {
      interrupts.press(ESC);
      return;
    }
    if (interrupts.press(Buffer.from(bytes).toString('utf8'))) return;
    typed.feed(bytes);
    if (!said && typed.peek()) {
      said = true;
      opts.onTyped?.();
    }
    opts.onTyping?.(typed.peek());
  };
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let from = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] !== CTRL_C) continue;
      keys(bytes.subarray(from, i));
      from = i + 1;
      interrupt(interrupts);
    }
    keys(bytes.subarray(from));
  };
  setRawMode(true);
  stdin.on('data', onData);
  stdin.resume();
  let released = false;
  return {
    active: true,
    release() {
      if (released) return;
      released = true;
      stdin.off('data', onData);
      if (!wasFlowing) stdin.pause();
      // Whatever is still on its way was typed during the run too.
      const rest = drainPending(io);
      typed.feed(Buffer.from(rest.filter((b) => b !== CTRL_C)));
      hold(io, typed.take());
      setRawMode(wasRaw);
    },
  };
}

/** Runs `work` with the keys guarded (nothing typed meanwhile echoes or answers what comes next). */
export async function withKeysGuarded<T>(io: IO, interrupts: Interrupts, work: () => Promise<T>): Promise<T> {
  const guard = guardKeys(io, interrupts);
  try {
    return await work();
  } finally {
    guard.release();
  }
}
