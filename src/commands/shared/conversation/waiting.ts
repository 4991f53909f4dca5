// The guard of a new message. The service takes the next message as the reply to a waiting
// question or plan (a build message approves a plan, a plan message revises it), so a new message
// while something waits is confirmed first. What waits comes from shared/run/latest-run.ts; where it
// cannot be told, a terminal asks; without one a new message exits 5, nothing sent, and --yes (the
// user's word) sends. A decision never rests on a guessed shape (docs/real-service.md). The guards
// of a reply flag: reply-target.ts.
import type { Context } from '../../../context.js';
import {
  ConfirmationNeededError,
  InterruptedError,
  PlanPendingError,
  QuestionPendingError,
  UsageError,
} from '../../../errors.js';
import { sanitizeInline } from '../../../io/sanitize.js';
import { decide, type LatestRun } from '../run/latest-run.js';
import type { ReplyTo } from './reply-key.js';
import type { Mode } from './send.js';
import { answeredWith, kindOf, notLatestSentence } from './what-waits.js';

export type { LatestRun } from '../run/latest-run.js';

const q = sanitizeInline;

/**
 * A new message. Nothing waits: it goes. A question or plan waits: --yes sends it as the reply,
 * a terminal asks, otherwise exit 10 (question) or 11 (plan). What waits cannot be told: --yes
 * sends it, a terminal asks, otherwise exit 5; nothing is sent unconfirmed. Returns what the
 * message answers when it is sent as a reply.
 */
export async function confirmNewMessage(
  ctx: Context,
  site: string,
  mode: Mode,
  job?: string,
): Promise<ReplyTo | undefined> {
  const d = await decide(ctx, site, job);
  if (d.kind === 'notLatest')
    throw new UsageError(
      `${notLatestSentence(site, d)}; nothing was sent. Name the latest run with --job, or leave --job out.`,
    );
  if (d.kind === 'none') return undefined;
  if (d.kind === 'unknown') return confirmUnknown(ctx, site, d.why);
  const kind = kindOf(d.run);
  if (!kind) return undefined;
  await confirmReply(ctx, site, mode, d.run);
  return { jobId: d.run.jobId, kind };
}

async function confirmUnknown(ctx: Context, site: string, why: string): Promise<undefined> {
  const sentence = `Cannot tell whether a question or plan waits on ${q(site)} (${why}); if one does, the agent takes this message as the reply to it.`;
  if (ctx.globals.yes) {
    ctx.io.info(`${sentence} Sending it anyway (--yes).`);
    return undefined;
  }
  if (ctx.prompter.canPrompt()) {
    ctx.io.errLine(sentence);
    if (await ctx.prompter.confirm('Send your message?', true)) return undefined;
    throw new InterruptedError('Nothing was sent.');
  }
  throw new ConfirmationNeededError(
    `${sentence} Nothing was sent. Name the site's latest run with --job JOB, or add --yes to send the message anyway.`,
    { site },
  );
}

async function confirmReply(ctx: Context, site: string, mode: Mode, run: LatestRun): Promise<void> {
  const what = run.question ? 'A question' : 'A plan';
  const taken = run.question
    ? 'its answer'
    : mode === 'plan'
      ? 'a revision of it'
      : 'its approval, and build it with your words added';
  const sentence = `${what} from run ${q(run.jobId)} waits on ${q(site)}, and the agent would take this message as ${taken}.`;
  if (ctx.globals.yes) {
    ctx.io.info(`${sentence} Sending it so (--yes).`);
    return;
  }
  const Refusal = run.question ? QuestionPendingError : PlanPendingError;
  if (ctx.prompter.canPrompt()) {
    ctx.io.errLine(`${sentence} ${answeredWith(site, run)}.`);
    if (await ctx.prompter.confirm('Send your message as the reply?', false)) return;
    throw new Refusal(`Nothing was sent; the ${run.question ? 'question' : 'plan'} still waits.`, { jobId: run.jobId });
  }
  throw new Refusal(
    `${sentence} Nothing was sent. ${answeredWith(site, run)}; or add --yes to send this message as the reply.`,
    { jobId: run.jobId, ...(run.question ? { options: run.question.options } : {}) },
  );
}

/**
 * The conversation's start: what the latest run left waiting, or 'unknown' when that cannot be
 * told (said before the first prompt; the first message is then confirmed). Undefined: nothing waits.
 */
export async function waitingAtStart(ctx: Context, site: string): Promise<LatestRun | 'unknown' | undefined> {
  const d = await decide(ctx, site);
  if (d.kind === 'unknown') {
    ctx.io.errLine(
      `Cannot tell whether a question or plan waits on ${q(site)} (${d.why}); if one does, your first message is taken as the reply to it.`,
    );
    return 'unknown';
  }
  return d.kind === 'known' && kindOf(d.run) ? d.run : undefined;
}
