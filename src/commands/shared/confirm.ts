// Every destructive step confirms first, saying in words what is lost. --yes answers for
// scripts; without a prompt and without --yes it stops with exit 5 and changes nothing.
import type { Context } from '../../context.js';
import { ConfirmationNeededError, InterruptedError } from '../../errors.js';
import type { IO } from '../../io/io.js';
import { noPromptReason } from '../../io/prompter.js';

export interface ConfirmOptions {
  /** What is about to happen, e.g. "Restore code backup cb_12 on site s_1". */
  action: string;
  /** What is lost or changed, one item a line. */
  consequences: string[];
  /** The flag that confirms without a prompt. */
  flag?: string;
}

/** " (CI is set (CI=true))", to follow "no prompt is possible here"; empty when nothing turned prompts off. */
export function noPromptBecause(io: IO, env: Record<string, string | undefined>): string {
  const reason = noPromptReason(io, env);
  return reason ? ` (${reason})` : '';
}

export async function confirmDestructive(
  ctx: Context,
  { action, consequences, flag = '--yes' }: ConfirmOptions,
): Promise<void> {
  if (ctx.globals.yes) return;
  if (!ctx.prompter.canPrompt()) {
    throw new ConfirmationNeededError(
      `${action} needs confirmation and no prompt is possible here${noPromptBecause(ctx.io, ctx.env)}; pass ${flag} to confirm. Nothing was changed.`,
      { action, consequences },
    );
  }
  ctx.io.errLine(`${action}:`);
  for (const c of consequences) ctx.io.errLine(`  - ${c}`);
  const ok = await ctx.prompter.confirm('Go ahead?', false);
  if (!ok) throw new InterruptedError('Cancelled; nothing was changed.');
}
