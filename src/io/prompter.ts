// What a prompt is to a command (ctx.prompter): the questions it can ask, their choices and
// options, and whether a prompt is possible at all, with the reason in words when it is not. The
// prompter of a real run is enquirer's (enquirer-prompter.ts); tests script one
// (test/helpers/scripted-prompter.ts). Prompts write to stderr: stdout is data.
import type { IO } from './io.js';
import { sanitizeInline } from './sanitize.js';

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
