// One question on the terminal, asked with enquirer (loaded here; this file only when a prompt
// is shown: enquirer-prompter.ts). enquirer writes to the terminal itself, past the IO's writers,
// so what it draws on is cleaned here: its colour is dropped when colour is off (NO_COLOR,
// --no-color: enquirer's own colour library only knows FORCE_COLOR=0), and it is told a sane
// width when the terminal says 0 or something absurd. No prompt takes a key typed before it
// appeared (keyguard.ts drains them first); a confirmation needs Enter, so a `y` typed ahead
// cannot answer the next question either. Ctrl-D, Esc, Ctrl-C and a signal each end it with
// their own error.
import { EndOfInputError, EscapeError, InterruptedError } from '../errors.js';
import type { IO } from './io.js';
import { drainPending, TypedText, takeTypeAhead } from './keyguard.js';
import {
  type AutoCompleteClass,
  CONFIRM,
  clearLineOnCtrlU,
  type EnquirerInstance,
  type EnquirerPrompt,
  endPrompt,
  tolerateClosedInput,
  FILTERED,
  type InputClass,
  plainAutoComplete,
  strictConfirm,
} from './prompt-kinds.js';
import { sanitizeInline } from './sanitize.js';
import { dropSignalListenersSince, markPrompt, signalListeners, tamePrompt } from './terminal-restore.js';
import { displayWidth, wrapText } from './width.js';

/** Every SGR sequence (enquirer's colour); its cursor movements stay. */
const SGR = /\u001b\[[0-9;]*m/g;

/** How a question is shown, besides enquirer's options. */
export interface Showing {
  /** The text typed before it appeared is its text (a conversation's message prompt); otherwise dropped. */
  typeAhead?: boolean;
  /** Once answered, the question and its answer are erased where the terminal can redraw. */
  transient?: boolean;
  /** Whether Space picks the choice at this index, as Enter does. */
  onSpace?: (index: number) => boolean;
}

/** Shows the question enquirer's `options` describe, cancelled when `signal` aborts; its answer. */
export async function showPrompt<T>(
  io: IO,
  signal: AbortSignal | undefined,
  options: Record<string, unknown>,
  { typeAhead = false, transient = false, onSpace }: Showing = {},
): Promise<T> {
  if (signal?.aborted) throw new InterruptedError('Cancelled.');
  const { default: Enquirer } = (await import('enquirer')) as unknown as {
    default: (new () => EnquirerInstance) & { AutoComplete: AutoCompleteClass; Input: InputClass };
  };
  // What enquirer writes goes to stderr as it is (cursor movements), without colour when colour is off.
  const terminal = {
    write: (text: string) => io.stderr.write(io.secrets.apply(io.color ? text : text.replace(SGR, ''))),
    get columns() {
      return io.columns;
    },
    get rows() {
      const rows = io.stderr.rows;
      return rows !== undefined && rows >= 2 && rows <= 10_000 ? rows : 24;
    },
  };
  const enquirer = new Enquirer();
  // A factory: enquirer keeps its types in one shared table, so this adds a type rather than replacing one.
  if (options.type === FILTERED) enquirer.register(FILTERED, () => plainAutoComplete(Enquirer.AutoComplete));
  if (options.type === CONFIRM) enquirer.register(CONFIRM, () => strictConfirm(Enquirer.Input));
  // Keys typed before the prompt appears: dropped, or this prompt's text (typeAhead).
  const typedBefore = new TypedText();
  typedBefore.feed(drainPending(io));
  const ahead = typedBefore.take();
  const initialText = typeAhead ? [takeTypeAhead(io), ahead].filter(Boolean).join(' ') : '';
  let shown: EnquirerPrompt | undefined;
  let ended = false;
  let escaped = false;
  // Ctrl-D ends the input, as in a shell; Node's readline would otherwise close under enquirer
  // and leave the process with nothing to wait for (exit 0, the shell's prompt mid-line).
  const stdin = io.stdin;
  const onKey = (_: unknown, key?: { ctrl?: boolean; name?: string }) => {
    if (key?.name === 'escape') escaped = true;
    if (!key?.ctrl || key.name !== 'd' || !shown) return;
    ended = true;
    endPrompt(shown);
  };
  const listenersBefore = signalListeners();
  enquirer.on('prompt', (p) => {
    shown = p;
    // Signals take the one way out, which cancels this prompt (terminal-restore.ts).
    dropSignalListenersSince(listenersBefore);
    tamePrompt(p as unknown as Parameters<typeof tamePrompt>[0]);
    tolerateClosedInput(p);
    markPrompt(io, true);
    // Space picks the line it is on, as Enter does, where the caller says so (enquirer's select
    // only rings the bell).
    if (onSpace) {
      const list = p as unknown as { index: number; space(): unknown; submit(): unknown; alert(): unknown };
      list.space = () => (onSpace(list.index) ? list.submit() : list.alert());
    }
    if (initialText) {
      p.input = initialText;
      p.cursor = initialText.length;
    }
    clearLineOnCtrlU(p);
    stdin.on('keypress', onKey);
  });
  const onAbort = () => void shown?.cancel();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const answers = await enquirer.prompt({
      name: 'value',
      stdin: io.stdin,
      stdout: terminal,
      columns: terminal.columns,
      rows: terminal.rows,
      ...options,
      message: sanitizeInline(String(options.message ?? '')),
    });
    reflow(io, shown, transient);
    return answers.value as T;
  } catch (err) {
    reflow(io, shown);
    // enquirer rejects with an empty value when the user presses Ctrl-C or Esc.
    if (ended) throw new EndOfInputError('End of input.');
    if (escaped && !signal?.aborted) throw new EscapeError(String(shown?.input ?? ''));
    if (signal?.aborted || err === '' || err === undefined || (err instanceof Error && err.message === ''))
      throw new InterruptedError('Cancelled.');
    throw err;
  } finally {
    markPrompt(io, false);
    stdin.off('keypress', onKey);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * enquirer leaves the answered question as it drew it, and the terminal folds a line wider than
 * itself mid-word (a long question from the agent, a long message): drawn again here, wrapped
 * at word boundaries. Lines that fit are left alone.
 */
function reflow(io: IO, p: EnquirerPrompt | undefined, erase = false): void {
  const cols = io.stderr.columns;
  const buffer = p?.state?.buffer ?? '';
  const text = buffer.replace(/\n+$/, '');
  if (!text || !io.canRedraw || cols === undefined) return;
  const lines = text.split('\n');
  const rows = lines.reduce((n, line) => n + Math.max(1, Math.ceil(displayWidth(line) / cols)), 0);
  if (rows === lines.length && !erase) return;
  // enquirer ends on the last row it drew, then writes one newline for each row its question
  // took: the cursor is that many rows below the last one.
  const up = rows - 1 + (buffer.length - text.length);
  // Erased (a transient question), what comes next takes its place.
  const wrapped = erase ? '' : `${wrapText(text, cols)}\n`;
  io.stderr.write(`${up > 0 ? `\u001b[${up}A` : ''}\r\u001b[J${io.color ? wrapped : wrapped.replace(SGR, '')}`);
}
