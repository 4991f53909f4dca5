// What a conversation (interactive.ts) says on stderr besides its runs: its help, what the next
// message does to a question or plan that waits and the ways out, the message prompt's label,
// and text typed during a run that was kept, or is left unsent.
import type { Context } from '../../context.js';
import { peekTypeAhead } from '../../io/keyguard.js';
import { sanitizeInline } from '../../io/sanitize.js';
import type { Pending } from '../../render/run-view.js';
import { answerLines } from '../shared/run/next-steps.js';

export const HELP =
  'Type a message for the agent. /plan toggles plan mode · /queue shows the queue · /resume runs a stopped queue · /cancel stops the run · /exit or Ctrl-D leaves. During a run, Esc cancels it (asks first) · Ctrl-C stops following (the run goes on).';

/** Kept text, as quoted in a sentence. */
export const quoted = (text: string) => `“${sanitizeInline(text.length > 40 ? `${text.slice(0, 39)}…` : text)}”`;

/** Leaving: text typed during a run and not yet shown at a prompt is said, never dropped unseen. */
export function sayNotSent(ctx: Context): void {
  const kept = peekTypeAhead(ctx.io);
  if (kept) ctx.io.errLine(`Not sent: what you typed during the run (${quoted(kept)}).`);
}

/** What the next message does to what waits, and the ways out: said once, when it starts to wait. */
export function sayWaiting(ctx: Context, w: Pending, mode: 'build' | 'plan'): void {
  ctx.io.errLine(
    w.kind === 'question'
      ? 'The question still waits: your next message is taken as its answer. /reply picks an answer · /exit leaves it waiting.'
      : `The plan still waits: your next message ${mode === 'plan' ? 'is taken as a revision of it' : 'approves it and builds it, with your words added'}. /reply decides · /plan ${mode === 'plan' ? 'leaves plan mode (approve)' : 'enters plan mode (revise)'} · /exit leaves it waiting.`,
  );
}

/** What the message prompt is called: it says what a message does now. */
export function promptLabel(plan: boolean, w: Pending | undefined): string {
  if (w?.kind === 'question') return 'You (answers the question)';
  if (w?.kind === 'plan') return plan ? 'You (revises the plan)' : 'You (approves the plan)';
  return plan ? 'You (plan mode)' : 'You';
}

/** Leaving while something waits: the commands that answer it later. */
export function sayLeftWaiting(ctx: Context, w: Pending): void {
  ctx.io.errLine(`The ${w.kind} still waits; answer it later with one of:`);
  for (const line of answerLines(w)) ctx.io.errLine(line);
}
