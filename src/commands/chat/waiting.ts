// The guards of a reply. The service takes the next message as the reply to a waiting question or
// plan (a build message approves a plan, a plan message revises it), so: a reply flag checks that
// what it answers waits on the latest run, and a new message while something waits is confirmed
// first. The latest run comes from latest-run.ts; when it cannot be told, a terminal asks, and
// without one a reply flag is refused (exit 2) and a new message needs --yes (exit 5): a
// decision that answers the agent never rests on a guess (docs/real-service.md).
import type { Context } from '../../context.js';
import {
  ConfirmationNeededError,
  InterruptedError,
  PlanPendingError,
  QuestionPendingError,
  UsageError,
} from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { chatCommand } from '../job/commands.js';
import { type Choice, chooseLatest, type LatestRun, readRunSources, type RunSources, whatWaits } from './latest-run.js';
import type { Mode } from './send.js';
import { flag as opt, sb } from '../../io/shell.js';

export type { LatestRun } from './latest-run.js';

const ENDED: Record<string, string> = {
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'was cancelled',
  question: 'ended with a question',
  plan: 'ended with a plan',
};

function howItIs(run: LatestRun): string {
  return `its latest run, ${sanitizeInline(run.jobId)}, ${ENDED[run.outcome] ?? `is ${sanitizeInline(run.outcome)}`}`;
}

/** The commands that answer what waits, as a sentence; each names the run with --job. */
export function answeredWith(site: string, run: LatestRun): string {
  const job = opt('--job', run.jobId);
  // Backquoted: a command to copy is never broken when the sentence is wrapped (src/io/width.ts).
  if (run.question) {
    const { options } = run.question;
    const list = options.map((o, i) => `${i + 1}. ${sanitizeInline(o)}`).join('; ');
    const choose = options.length
      ? `\`${chatCommand(site, opt('--choose', 'N'), job)}\` (N from 1 to ${options.length}: ${list}) or `
      : '';
    return `The agent asks: ${sanitizeInline(run.question.question)} Answer with ${choose}\`${chatCommand(site, opt('--answer', '…'), job)}\``;
  }
  return `Its plan waits: approve it with \`${chatCommand(site, opt('--approve'), job)}\`, or ask for changes with \`${chatCommand(site, opt('--revise', '…'), job)}\``;
}

function notLatestSentence(site: string, c: Extract<Choice, { notLatest: string }>): string {
  const by = c.by === 'history' ? 'by the times in its history' : 'among the runs started from here';
  return `Run ${sanitizeInline(c.notLatest)} is not the latest run of ${sanitizeInline(site)} (${sanitizeInline(c.latest)} is, ${by}), so what it asked no longer waits`;
}

/**
 * The latest run, read once; 'none' when the site has no conversation yet. When it cannot be
 * told, `unknown` decides: it returns a run id to try (asked on a terminal), or throws, or
 * returns undefined (then so does this).
 */
async function latestRun(
  ctx: Context,
  site: string,
  job: string | undefined,
  onNotLatest: (c: Extract<Choice, { notLatest: string }>) => never,
  unknown: (why: string) => Promise<string | undefined>,
): Promise<LatestRun | 'none' | undefined> {
  const sources: RunSources = await readRunSources(ctx, site);
  let named = job;
  for (;;) {
    const choice = chooseLatest(sources, named);
    if ('notLatest' in choice) onNotLatest(choice);
    if ('none' in choice) return 'none';
    let why: string;
    if ('unknown' in choice) why = choice.unknown;
    else {
      const w = await whatWaits(ctx, site, choice);
      if (w.known) return w.run;
      why = w.why;
    }
    const typed = await unknown(why);
    if (typed === undefined || typed === named) return undefined;
    named = typed;
  }
}

/** On a terminal: the run the reply answers, typed by the user; Esc or an empty answer sends nothing. */
async function askWhichRun(ctx: Context, site: string, why: string, flag: string): Promise<string> {
  ctx.io.errLine(`Cannot tell which run of ${sanitizeInline(site)} is the latest (${why}).`);
  let typed: string | undefined;
  try {
    typed = await ctx.prompter.input(`The run ${flag} answers (its job id, printed with the question or plan)`);
  } catch (err) {
    if (!(err instanceof InterruptedError)) throw err;
  }
  if (!typed?.trim()) throw new InterruptedError(`No run named; ${flag} sent nothing.`);
  return typed.trim();
}

const NO_HISTORY = 'it has no chat history yet';

/** For a reply flag: the latest run ('none': no conversation yet), or exit 2 (no terminal) naming --job. */
async function latestForReply(ctx: Context, site: string, flag: string, job?: string): Promise<LatestRun | 'none'> {
  const run = await latestRun(
    ctx,
    site,
    job,
    (c) => {
      throw new UsageError(
        `${notLatestSentence(site, c)}; ${flag} sent nothing. See how the latest run ended with: ${sb('job watch', site, c.latest)}`,
      );
    },
    async (why) => {
      if (!ctx.prompter.canPrompt())
        throw new UsageError(
          `Cannot tell which run of ${sanitizeInline(site)} is the latest (${why}), so ${flag} sent nothing; name the run it answers with --job JOB (printed with the question or plan).`,
        );
      return askWhichRun(ctx, site, why, flag);
    },
  );
  if (!run) throw new UsageError(`Could not read the run named; ${flag} sent nothing.`);
  return run;
}

/** --answer / --choose: a question must wait on the latest run. Returns that run and its question. */
export async function requireQuestion(
  ctx: Context,
  site: string,
  flag: string,
  job?: string,
): Promise<LatestRun & { question: NonNullable<LatestRun['question']> }> {
  const run = await latestForReply(ctx, site, flag, job);
  if (run === 'none')
    throw new UsageError(
      `No question waits for an answer on ${sanitizeInline(site)} (${NO_HISTORY}); ${flag} sent nothing. To send it as a new message: ${chatCommand(site, '…')}`,
    );
  if (run.question) return { ...run, question: run.question };
  const instead =
    run.plan !== undefined ? ` ${answeredWith(site, run)}.` : ` To send it as a new message: ${chatCommand(site, '…')}`;
  throw new UsageError(
    `No question waits for an answer on ${sanitizeInline(site)} (${howItIs(run)}); ${flag} sent nothing.${instead}`,
  );
}

/** --approve / --revise: a plan must wait on the latest run. */
export async function requirePlan(ctx: Context, site: string, flag: string, job?: string): Promise<LatestRun> {
  const run = await latestForReply(ctx, site, flag, job);
  if (run === 'none')
    throw new UsageError(
      `No plan waits for approval on ${sanitizeInline(site)} (${NO_HISTORY}); ${flag} sent nothing. To ask for a plan: ${chatCommand(site, opt('--plan'), '…')}`,
    );
  if (run.plan !== undefined) return run;
  const instead = run.question
    ? ` ${answeredWith(site, run)}.`
    : ` To ask for a plan: ${chatCommand(site, opt('--plan'), '…')}`;
  throw new UsageError(
    `No plan waits for approval on ${sanitizeInline(site)} (${howItIs(run)}); ${flag} sent nothing.${instead}`,
  );
}

/**
 * A new message. Nothing waits: it goes. A question or plan waits: --yes sends it as the reply,
 * a terminal asks, otherwise exit 10 (question) or 11 (plan). The latest run cannot be told:
 * --yes sends it, a terminal asks, otherwise exit 5; nothing is sent unconfirmed.
 */
export async function confirmNewMessage(ctx: Context, site: string, mode: Mode, job?: string): Promise<void> {
  const run = await latestRun(
    ctx,
    site,
    job,
    (c) => {
      throw new UsageError(
        `${notLatestSentence(site, c)}; nothing was sent. Name the latest run with --job, or leave --job out.`,
      );
    },
    async (why) => {
      await confirmUnknown(ctx, site, why);
      return undefined;
    },
  );
  if (run && run !== 'none' && (run.question || run.plan !== undefined)) await confirmReply(ctx, site, mode, run);
}

async function confirmUnknown(ctx: Context, site: string, why: string): Promise<void> {
  const sentence = `Cannot tell whether a question or plan waits on ${sanitizeInline(site)} (${why}); if one does, the agent takes this message as the reply to it.`;
  if (ctx.globals.yes) {
    ctx.io.info(`${sentence} Sending it anyway (--yes).`);
    return;
  }
  if (ctx.prompter.canPrompt()) {
    ctx.io.errLine(sentence);
    if (await ctx.prompter.confirm('Send your message?', true)) return;
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
  const sentence = `${what} from run ${sanitizeInline(run.jobId)} waits on ${sanitizeInline(site)}, and the agent would take this message as ${taken}.`;
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
 * The conversation's start: what the latest run left waiting, or, when that cannot be told, a
 * confirmation before the first message (--yes skips it). Undefined: nothing waits, or unknown
 * and confirmed. The note on unknown says so before the first prompt.
 */
export async function waitingAtStart(ctx: Context, site: string): Promise<LatestRun | 'unknown' | undefined> {
  let unknownWhy: string | undefined;
  const run = await latestRun(
    ctx,
    site,
    undefined,
    () => {
      throw new Error('unreachable: no run named');
    },
    async (why) => {
      unknownWhy = why;
      return undefined;
    },
  );
  if (unknownWhy !== undefined) {
    ctx.io.errLine(
      `Cannot tell whether a question or plan waits on ${sanitizeInline(site)} (${unknownWhy}); if one does, your first message is taken as the reply to it.`,
    );
    return 'unknown';
  }
  return run && run !== 'none' && (run.question || run.plan !== undefined) ? run : undefined;
}
