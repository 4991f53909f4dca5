// Prompts (enquirer, loaded only when a prompt is shown). They write to stderr: stdout is data.
import { ConfirmationNeededError } from '../errors.js';
import type { IO } from './io.js';

export interface Choice<T> {
  label: string;
  value: T;
  hint?: string;
  /** Shown after the question once this choice is picked (default: the label). */
  picked?: string;
}

export interface Prompter {
  /** Prompts only when stdin and stderr are terminals, --json is off and CI is unset. */
  canPrompt(): boolean;
  /** Throws ConfirmationNeededError (exit 5) naming the flag that answers, when no prompt is possible. */
  require(what: string, flagHint: string): void;
  input(message: string, opts?: { initial?: string; validate?: (v: string) => true | string }): Promise<string>;
  password(message: string): Promise<string>;
  confirm(message: string, initial?: boolean): Promise<boolean>;
  select<T>(message: string, choices: Choice<T>[]): Promise<T>;
  multiselect<T>(message: string, choices: Choice<T>[], opts?: { max?: number }): Promise<T[]>;
}

export function promptPossible(io: IO, env: Record<string, string | undefined>): boolean {
  return io.stdinIsTTY && io.stderrIsTTY && !io.json && !env.CI;
}

export class EnquirerPrompter implements Prompter {
  constructor(
    private readonly io: IO,
    private readonly env: Record<string, string | undefined>,
  ) {}

  canPrompt(): boolean {
    return promptPossible(this.io, this.env);
  }

  require(what: string, flagHint: string): void {
    if (!this.canPrompt()) {
      throw new ConfirmationNeededError(
        `${what} needs an answer and no prompt is possible here; ${flagHint}. Nothing was changed.`,
      );
    }
  }

  private async run<T>(options: Record<string, unknown>): Promise<T> {
    const { default: enquirer } = (await import('enquirer')) as unknown as {
      default: { prompt: (o: unknown) => Promise<Record<string, T>> };
    };
    try {
      const answers = await enquirer.prompt({
        name: 'value',
        stdin: this.io.stdin,
        stdout: this.io.stderr,
        ...options,
      });
      return answers.value as T;
    } catch (err) {
      // enquirer rejects with an empty value when the user presses Ctrl-C or Esc.
      const { InterruptedError } = await import('../errors.js');
      if (err === '' || err === undefined || (err instanceof Error && err.message === ''))
        throw new InterruptedError('Cancelled.');
      throw err;
    }
  }

  input(message: string, opts: { initial?: string; validate?: (v: string) => true | string } = {}): Promise<string> {
    return this.run<string>({ type: 'input', message, initial: opts.initial, validate: opts.validate });
  }

  password(message: string): Promise<string> {
    return this.run<string>({ type: 'password', message });
  }

  confirm(message: string, initial = false): Promise<boolean> {
    return this.run<boolean>({ type: 'confirm', message, initial });
  }

  async select<T>(message: string, choices: Choice<T>[]): Promise<T> {
    // enquirer prints the chosen name after the question, so the name is what to show then (made unique).
    const seen = new Set<string>();
    const names = choices.map((c, i) => {
      const shown = c.picked ?? c.label;
      const name = seen.has(shown) ? `${shown} (${i + 1})` : shown;
      seen.add(name);
      return { name, message: c.label, hint: c.hint };
    });
    const picked = await this.run<string>({
      type: 'select',
      message,
      choices: names,
      result(this: unknown, name: string) {
        return name;
      },
    });
    return choices[names.findIndex((n) => n.name === picked)].value;
  }

  async multiselect<T>(message: string, choices: Choice<T>[], opts: { max?: number } = {}): Promise<T[]> {
    const names = choices.map((c, i) => ({ name: String(i), message: c.label, hint: c.hint }));
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
