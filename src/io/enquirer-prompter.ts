// Our prompts as enquirer's questions (prompter.ts says what they are): every label and hint
// sanitized, the choices named uniquely so that the one picked is found again, a confirmation
// that needs y or n then Enter, a list that typing filters. The question is shown by
// show-prompt.ts, loaded with enquirer only when a prompt is shown.
import { ConfirmationNeededError, InterruptedError } from '../errors.js';
import type { IO } from './io.js';
import { ANSWER, CONFIRM, FILTERED, matches, YES } from './prompt-kinds.js';
import {
  type Choice,
  type InputOptions,
  noPromptReason,
  type Prompter,
  promptPossible,
  type SelectOptions,
} from './prompter.js';
import { sanitizeInline } from './sanitize.js';
import type { Showing } from './show-prompt.js';

const hintOf = (c: Choice<unknown>) => (c.hint === undefined ? undefined : sanitizeInline(c.hint));

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

  /** Shows one question (show-prompt.ts, with enquirer: both loaded now) and gives its answer. */
  private async run<T>(options: Record<string, unknown>, how?: Showing): Promise<T> {
    const { showPrompt } = await import('./show-prompt.js');
    return showPrompt<T>(this.io, this.signal, options, how);
  }

  input(message: string, opts: InputOptions = {}): Promise<string> {
    const initial = opts.initial === undefined ? undefined : sanitizeInline(opts.initial);
    return this.run<string>(
      { type: 'input', message, initial, validate: opts.validate },
      { typeAhead: opts.typeAhead },
    );
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
      { transient: opts.transient, onSpace: opts.space },
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
