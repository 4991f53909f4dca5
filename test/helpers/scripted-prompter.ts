// A Prompter that answers from a script, for in-process tests of interactive flows. Each step
// names the kind of prompt it expects and answers it (a choice is found by its label); an
// unexpected prompt fails the test with the question that was asked.
import type { Choice, Prompter } from '../../src/io/prompter.js';

export type Step =
  | { select: RegExp | string; then?: () => unknown }
  | { confirm: boolean; then?: () => unknown }
  | { input: string };

export class ScriptedPrompter implements Prompter {
  readonly asked: string[] = [];
  /** The choices each select offered. */
  readonly offered: Array<Choice<unknown>[]> = [];
  /** The text each input prompt started from (its `initial`). */
  readonly initials: Array<string | undefined> = [];
  constructor(private readonly steps: Step[]) {}

  canPrompt(): boolean {
    return true;
  }

  require(): void {}

  private next(kind: string, message: string): Step {
    this.asked.push(message);
    const step = this.steps.shift();
    if (!step || !(kind in step))
      throw new Error(`Unexpected ${kind} prompt: ${message} (next step: ${JSON.stringify(step)})`);
    return step;
  }

  async input(message: string, opts: { initial?: string } = {}): Promise<string> {
    this.initials.push(opts.initial);
    return (this.next('input', message) as { input: string }).input;
  }

  async password(message: string): Promise<string> {
    return this.input(message);
  }

  async confirm(message: string): Promise<boolean> {
    const step = this.next('confirm', message) as { confirm: boolean; then?: () => unknown };
    await step.then?.();
    return step.confirm;
  }

  async select<T>(message: string, choices: Choice<T>[]): Promise<T> {
    const step = this.next('select', message) as { select: RegExp | string; then?: () => unknown };
    this.offered.push(choices);
    const matching = choices.filter((c) =>
      typeof step.select === 'string' ? c.label.includes(step.select) : step.select.test(c.label),
    );
    // A disabled choice is shown, but the keys never reach it.
    const found = matching.find((c) => !c.disabled);
    if (!found && matching.length)
      throw new Error(`The choice matching ${step.select} in "${message}" cannot be picked: ${matching[0].label}`);
    if (!found)
      throw new Error(`No choice matches ${step.select} in "${message}": ${choices.map((c) => c.label).join(' | ')}`);
    await step.then?.();
    return found.value;
  }

  async multiselect<T>(message: string, choices: Choice<T>[]): Promise<T[]> {
    const v = await this.select(message, choices);
    return [v];
  }

  get remaining(): number {
    return this.steps.length;
  }
}
