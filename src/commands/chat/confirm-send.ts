// Asking before a line of a conversation (interactive.ts) is sent: a line that looks meant for
// the shell or mistyped (shell-like.ts), and the first message when what waits at the site cannot
// be told (shared/conversation/waiting.ts). Esc or Ctrl-C at the question sends nothing.
import type { Context } from '../../context.js';
import { InterruptedError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { displayWidth } from '../../io/width.js';

/** What a confirmation line holds beside its question: `? `, ` › ` and `(y/N)`, and the cursor. */
const CONFIRM_DECORATION = 11;

/**
 * A line that looks meant for something else: sent only when confirmed (Esc or Ctrl-C: not sent).
 * Where the whole question does not fit one line, the reason is said above it, folded at word
 * boundaries (errLine), and the question stays short: a terminal folds a waiting prompt mid-word.
 */
export async function confirmOdd(ctx: Context, why: string): Promise<boolean> {
  const ask = 'Send it to the agent anyway?';
  let question = `${why}. ${ask}`;
  if (displayWidth(question) + CONFIRM_DECORATION > ctx.io.columns) {
    ctx.io.errLine(`${sanitizeInline(why)}.`);
    question = ask;
  }
  let yes = false;
  try {
    yes = await ctx.prompter.confirm(question, false);
  } catch (err) {
    if (!(err instanceof InterruptedError)) throw err;
  }
  if (!yes) ctx.io.errLine('Not sent. /help lists the commands; /exit leaves.');
  return yes;
}

/** The first message, when what waits cannot be told; Esc declines. */
export async function confirmFirst(ctx: Context): Promise<boolean> {
  try {
    return await ctx.prompter.confirm('Send it?', true);
  } catch (err) {
    if (err instanceof InterruptedError) return false;
    throw err;
  }
}
