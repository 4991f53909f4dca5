// Prompts (enquirer, loaded only when a prompt is shown). They write to stderr: stdout is data.
// enquirer writes to the terminal itself, past the IO's writers, so what it is given is cleaned
// here: every label and hint is sanitized, its colour is dropped when colour is off (NO_COLOR,
// --no-color: enquirer's own colour library only knows FORCE_COLOR=0), and it is told a sane
// width when the terminal says 0 or something absurd. No prompt takes a key typed before it
// appeared (keyguard.ts drains them first); a confirmation needs Enter, so a `y` typed ahead
// cannot answer the next question either.
import { ConfirmationNeededError, InterruptedError } from '../errors.js';
import type { IO } from './io.js';
import { drainPending, TypedText, takeTypeAhead } from './keyguard.js';
import { sanitizeInline } from './sanitize.js';
import { dropSignalListenersSince, markPrompt, signalListeners, tamePrompt } from './terminal-restore.js';
import { displayWidth, wrapText } from './width.js';
import {
  ANSWER,
  type AutoCompleteClass,
  CONFIRM,
  clearLineOnCtrlU,
  type EnquirerInstance,
  type EnquirerPrompt,
  endPrompt,
  tolerateClosedInput,
  FILTERED,
  type InputClass,
  matches,
  plainAutoComplete,
  strictConfirm,
  YES,
} from './prompt-kinds.js';

/** Every SGR sequence (enquirer's colour); its cursor movements stay. */
const SGR = /\u001b\[[0-9;]*m/g;

export interface Choice<T> {
  label: string;
  value: T;
  hint?: string;
  /** Shown after the question once this choice is picked (default: the label). */
  picked?: string;
  /** Shown, dimmed, but cannot be picked (the label says why). */
  disabled?: boolean;
  /** Also matched by a filter's words: the id, where a narrow terminal leaves it off the line. */
  search?: string;
}

/** Ctrl-D at a prompt: the end of input, as a shell takes it (the conversation leaves). */
export class EndOfInputError extends InterruptedError {}

/** Esc at a prompt (an InterruptedError, as Ctrl-C): with the text that was typed at it. */
export class EscapeError extends InterruptedError {
  constructor(readonly typed: string) {
    super('Cancelled.');
  }
}

export interface SelectOptions {
  filter?: boolean;
  transient?: boolean;
  footer?: string;
  /** Whether Space picks the choice at this index, as Enter does. */
  space?: (index: number) => boolean;
  /** The line the cursor starts on (default: the first). */
  initial?: number;
}

export interface InputOptions {
  initial?: string;
  validate?: (v: string) => true | string;
  /**
   * The text typed before the prompt appeared (during a run) is this prompt's text, as typed,
   * to edit or send with Enter: for the message prompt of a conversation only. Otherwise it is dropped.
   */
  typeAhead?: boolean;
}

export interface Prompter {
  /** Prompts only when stdin and stderr are terminals, --json is off and CI is unset. */
  canPrompt(): boolean;
  /** Throws ConfirmationNeededError (exit 5) naming the flag that answers, when no prompt is possible. */
  require(what: string, flagHint: string): void;
  input(message: string, opts?: InputOptions): Promise<string>;
  password(message: string): Promise<string>;
  /** Asks `message (y/N)`; y or n then Enter answers, Enter alone takes `initial` (default No). */
  confirm(message: string, initial?: boolean): Promise<boolean>;
  /**
   * filter: typing narrows the list (every word typed, in the label or the hint), for long lists.
   * transient: once answered, the question and its answer are erased where the terminal can
   * redraw (a step of a browse, redrawn in place by the next one). footer: a line under the
   * list (the keys). space: the choices Space picks as Enter does (a line that ticks).
   */
  select<T>(message: string, choices: Choice<T>[], opts?: SelectOptions): Promise<T>;
  multiselect<T>(message: string, choices: Choice<T>[], opts?: { max?: number }): Promise<T[]>;
}

const hintOf = (c: Choice<unknown>) => (c.hint === undefined ? undefined : sanitizeInline(c.hint));

export function promptPossible(io: IO, env: Record<string, string | undefined>): boolean {
  return io.stdinIsTTY && io.stderrIsTTY && !io.json && !env.CI;
}

/**
 * What turned prompts off (promptPossible), in words that name what to change: `CI is set
 * (CI=true)`, `--json is given`, `standard input is not a terminal`…; empty when nothing did.
 */
export function noPromptReason(io: IO, env: Record<string, string | undefined>): string {
  return [
    env.CI && `CI is set (CI=${sanitizeInline(env.CI).slice(0, 40)})`,
    io.json && '--json is given',
    !io.stdinIsTTY && 'standard input is not a terminal',
    !io.stderrIsTTY && 'standard error is not a terminal',
  ]
    .filter(Boolean)
    .join(', ');
}

export class EnquirerPrompter implements Prompter {
  /** signal: a prompt on the screen is cancelled when it aborts (SIGINT sent by `kill`, not typed). */
  constructor(
    private readonly io: IO,
    private readonly env: Record<string, string | undefined>,
    private readonly signal?: AbortSignal,
  ) {}

  canPrompt(): boolean {
    return promptPossible(this.io, this.env);
  }

  require(what: string, flagHint: string): void {
    if (!this.canPrompt()) {
      throw new ConfirmationNeededError(
        `${what} needs an answer and no prompt is possible here (${noPromptReason(this.io, this.env)}); ${flagHint}. Nothing was changed.`,
      );
    }
  }

  private async run<T>(
    options: Record<string, unknown>,
    typeAhead = false,
    transient = false,
    onSpace?: (index: number) => boolean,
  ): Promise<T> {
    if (this.signal?.aborted) throw new InterruptedError('Cancelled.');
    const { default: Enquirer } = (await import('enquirer')) as unknown as {
      default: (new () => EnquirerInstance) & { AutoComplete: AutoCompleteClass; Input: InputClass };
    };
    const io = this.io;
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
    const stdin = this.io.stdin;
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
    this.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const answers = await enquirer.prompt({
        name: 'value',
        stdin: this.io.stdin,
        stdout: terminal,
        columns: terminal.columns,
        rows: terminal.rows,
        ...options,
        message: sanitizeInline(String(options.message ?? '')),
      });
      this.reflow(shown, transient);
      return answers.value as T;
    } catch (err) {
      this.reflow(shown);
      // enquirer rejects with an empty value when the user presses Ctrl-C or Esc.
      if (ended) throw new EndOfInputError('End of input.');
      if (escaped && !this.signal?.aborted) throw new EscapeError(String(shown?.input ?? ''));
      if (this.signal?.aborted || err === '' || err === undefined || (err instanceof Error && err.message === ''))
        throw new InterruptedError('Cancelled.');
      throw err;
    } finally {
      markPrompt(io, false);
      stdin.off('keypress', onKey);
      this.signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * enquirer leaves the answered question as it drew it, and the terminal folds a line wider than
   * itself mid-word (a long question from the agent, a long message): drawn again here, wrapped
   * at word boundaries. Lines that fit are left alone.
   */
  private reflow(p: EnquirerPrompt | undefined, erase = false): void {
    const cols = this.io.stderr.columns;
    const buffer = p?.state?.buffer ?? '';
    const text = buffer.replace(/\n+$/, '');
    if (!text || !this.io.canRedraw || cols === undefined) return;
    const lines = text.split('\n');
    const rows = lines.reduce((n, line) => n + Math.max(1, Math.ceil(displayWidth(line) / cols)), 0);
    if (rows === lines.length && !erase) return;
    // enquirer ends on the last row it drew, then writes one newline for each row its question
    // took: the cursor is that many rows below the last one.
    const up = rows - 1 + (buffer.length - text.length);
    // Erased (a transient question), what comes next takes its place.
    const wrapped = erase ? '' : `${wrapText(text, cols)}\n`;
    this.io.stderr.write(
      `${up > 0 ? `\u001b[${up}A` : ''}\r\u001b[J${this.io.color ? wrapped : wrapped.replace(SGR, '')}`,
    );
  }

  input(message: string, opts: InputOptions = {}): Promise<string> {
    const initial = opts.initial === undefined ? undefined : sanitizeInline(opts.initial);
    return this.run<string>({ type: 'input', message, initial, validate: opts.validate }, opts.typeAhead);
  }

  password(message: string): Promise<string> {
    return this.run<string>({ type: 'password', message });
  }

  async confirm(message: string, initial = false): Promise<boolean> {
    const typed = await this.run<string>({
      type: CONFIRM,
      message,
      yesNo: initial ? '(Y/n)' : '(y/N)',
      fallback: initial,
      validate: (v: string) => ANSWER.test(v.trim()) || 'Type y or n, then press Enter.',
    });
    const answer = String(typed ?? '').trim();
    return answer === '' ? initial : YES.test(answer);
  }

  async select<T>(message: string, choices: Choice<T>[], opts: SelectOptions = {}): Promise<T> {
    // enquirer prints the chosen name after the question, so the name is what to show then (made unique).
    const seen = new Set<string>();
    const names = choices.map((c, i) => {
      const shown = sanitizeInline(c.picked ?? c.label);
      const name = seen.has(shown) ? `${shown} (${i + 1})` : shown;
      seen.add(name);
      // A disabled choice without a hint would get enquirer's "(disabled)": the label says why.
      const search = c.search && sanitizeInline(c.search);
      return {
        name,
        message: sanitizeInline(c.label),
        hint: c.disabled ? '' : hintOf(c),
        disabled: c.disabled,
        search,
      };
    });
    const rows = this.io.stderr.rows;
    const filter = opts.filter
      ? {
          type: FILTERED,
          footer: '(type to filter)',
          limit: Math.max(3, Math.min(10, (rows !== undefined && rows <= 10_000 ? rows : 24) - 4)),
          suggest: (input: string, all: Array<{ message: string; hint?: string; search?: string }>) =>
            input.trim() ? all.filter((c) => matches(input.trim(), c)) : all,
        }
      : { type: 'select', footer: opts.footer, initial: opts.initial };
    const picked = await this.run<string>(
      {
        ...filter,
        message,
        choices: names,
        result(this: unknown, name: string) {
          return name;
        },
      },
      false,
      opts.transient,
      opts.space,
    );
    const at = names.findIndex((n) => n.name === picked);
    // Enter on a filter that matches nothing submits no choice.
    if (at < 0) throw new InterruptedError('Nothing was picked.');
    return choices[at].value;
  }

  async multiselect<T>(message: string, choices: Choice<T>[], opts: { max?: number } = {}): Promise<T[]> {
    const names = choices.map((c, i) => ({ name: String(i), message: sanitizeInline(c.label), hint: hintOf(c) }));
    const picked = await this.run<string[]>({
      type: 'multiselect',
      message,
      choices: names,
      validate: (v: string[]) => (opts.max !== undefined && v.length > opts.max ? `Pick at most ${opts.max}.` : true),
      result(this: unknown, selected: string[]) {
        return selected;
      },
    });
    return picked.map((n) => choices[Number(n)].value);
  }
}
