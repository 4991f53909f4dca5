// The guards of a reply. The service takes the next message as the reply to a waiting question
// or plan, so --answer / --choose (a question) and --approve / --revise (a plan) check that what
// they answer waits on the latest run (shared/run/latest-run.ts). Where that cannot be told, a
// terminal asks, --yes (the user's word) sends, and otherwise exit 2, nothing sent. A decision
// never rests on a guessed shape (docs/real-service.md).
import type { Context } from '../../../context.js';
import { ApiError, AuthError, InterruptedError, NetworkError, UsageError } from '../../../errors.js';
import { sanitizeInline } from '../../../io/sanitize.js';
import { flag as opt, sb } from '../../../io/shell.js';
import { type Decision, decide, type LatestRun } from '../run/latest-run.js';
import { chatCommand } from '../run/next-steps.js';
import type { ReplyTo } from './reply-key.js';
import { answeredWith, choices, howItIs, kindOf, notLatestSentence } from './what-waits.js';

const q = sanitizeInline;

/** On a terminal: the run the reply answers, typed by the user; Esc or an empty answer sends nothing. */
async function askWhichRun(ctx: Context, site: string, why: string, flag: string): Promise<string> {
  ctx.io.errLine(`Cannot tell which run of ${q(site)} is the latest (${why}).`);
  let typed: string | undefined;
  try {
    typed = await ctx.prompter.input(`The run ${flag} answers (its job id, printed with the question or plan)`);
  } catch (err) {
    if (!(err instanceof InterruptedError)) throw err;
  }
  if (!typed?.trim()) throw new InterruptedError(`No run named; ${flag} sent nothing.`);
  return typed.trim();
}

/** A yes or no at a terminal; Esc is no. */
async function confirmed(ctx: Context, question: string, byDefault: boolean): Promise<boolean> {
  try {
    return await ctx.prompter.confirm(question, byDefault);
  } catch (err) {
    if (err instanceof InterruptedError) return false;
    throw err;
  }
}

const NO_HISTORY = 'it has no chat history yet';
const WHAT = { question: 'question', plan: 'plan' } as const;

/**
 * --answer / --choose (question) and --approve / --revise (plan): the run whose question or plan
 * the reply answers. Where whether it still waits cannot be told, a terminal confirms, --yes
 * sends, and otherwise exit 2, nothing sent.
 */
async function requireWaiting(
  ctx: Context,
  site: string,
  flag: string,
  kind: ReplyTo['kind'],
  job?: string,
): Promise<LatestRun> {
  let named = job;
  for (;;) {
    const d = await decide(ctx, site, named);
    if (d.kind === 'notLatest')
      throw new UsageError(
        `${notLatestSentence(site, d)}; ${flag} sent nothing. See how the latest run ended with: ${sb('job watch', site, d.latest)}`,
      );
    if (d.kind === 'none') throw noneWaits(site, flag, kind, NO_HISTORY);
    if (d.kind === 'known') {
      if (kindOf(d.run) === kind) return d.run;
      throw noneWaits(site, flag, kind, howItIs(d.run), d.run);
    }
    const run = d.run;
    if (run && kindOf(run) === kind) return confirmUnknownReply(ctx, site, flag, run, d.why);
    if (run && named !== undefined) throw noneWaits(site, flag, kind, howItIs(run), run);
    if (!ctx.prompter.canPrompt())
      throw new UsageError(
        `Cannot tell which run of ${q(site)} is the latest (${d.why}), so ${flag} sent nothing; name the run it answers with --job JOB (printed with the question or plan).`,
      );
    const typed = await askWhichRun(ctx, site, d.why, flag);
    if (typed === named) throw new UsageError(`Could not read the run named; ${flag} sent nothing.`);
    named = typed;
  }
}

function noneWaits(site: string, flag: string, kind: ReplyTo['kind'], how: string, run?: LatestRun): UsageError {
  const other = run && kindOf(run) && kindOf(run) !== kind ? ` ${answeredWith(site, run)}.` : '';
  const instead =
    other ||
    (kind === 'question'
      ? ` To send it as a new message: ${chatCommand(site, '…')}`
      : ` To ask for a plan: ${chatCommand(site, opt('--plan'), '…')}`);
  const waits = kind === 'question' ? 'No question waits for an answer' : 'No plan waits for approval';
  return new UsageError(`${waits} on ${q(site)} (${how}); ${flag} sent nothing.${instead}`);
}

/** The reply's run is known, but not whether its question or plan still waits: the user's word decides. */
async function confirmUnknownReply(
  ctx: Context,
  site: string,
  flag: string,
  run: LatestRun,
  why: string,
): Promise<LatestRun> {
  const what = WHAT[kindOf(run)!];
  const sentence = `Cannot tell whether the ${what} of run ${q(run.jobId)} still waits on ${q(site)} (${why})`;
  if (ctx.globals.yes) {
    ctx.io.info(`${sentence}. Sending ${flag} as its reply (--yes).`);
    return run;
  }
  if (ctx.prompter.canPrompt()) {
    ctx.io.errLine(`${sentence}; \`${sb('message list', site)}\` shows what happened.`);
    if (await confirmed(ctx, `Send it as the reply to the ${what} of run ${q(run.jobId)}?`, false)) return run;
    throw new InterruptedError(`Nothing was sent.`);
  }
  throw new UsageError(
    `${sentence}, so ${flag} sent nothing. \`${sb('message list', site)}\` shows what happened; if the ${what} still waits, add --yes.`,
    { jobId: run.jobId },
  );
}

/**
 * --choose N (a placeholder): refused, exit 2, nothing sent, but the question is read back (reads
 * only: the history and get_job, latest-run.ts; --job names the run) so the whole --choose
 * command of each suggested answer is printed, as for a number out of range. What cannot be
 * read is said so.
 */
export async function placeholderChoice(ctx: Context, site: string, typed: string, job?: string): Promise<UsageError> {
  const refused = `--choose ${q(typed)} holds a placeholder: put the number of one of the suggested answers in its place. Nothing was sent.`;
  let d: Decision;
  try {
    d = await decide(ctx, site, job);
  } catch (err) {
    if (err instanceof AuthError || !(err instanceof ApiError || err instanceof NetworkError)) throw err;
    return new UsageError(
      `${refused} The question${job ? ` of run ${q(job)}` : ''} could not be read (${err.message.replace(/\.$/, '')}), so its answers cannot be listed here.${job ? ` \`${sb('job watch', site, job)}\` prints them once it can be read.` : ''}`,
    );
  }
  if (d.kind === 'notLatest')
    return new UsageError(
      `${refused} ${notLatestSentence(site, d)}. See how the latest run ended with: ${sb('job watch', site, d.latest)}`,
    );
  if (d.kind === 'none') return new UsageError(`${refused} No question waits on ${q(site)} (${NO_HISTORY}).`);
  if (d.kind === 'unknown' && !d.run)
    return new UsageError(
      `${refused} Cannot tell which run of ${q(site)} is the latest (${d.why}), so its question cannot be listed here; name the run with --job (its job id is printed with the question).`,
    );
  const run = d.run!;
  if (run.question?.options.length)
    return new UsageError(`${refused} Pick one with ${choices(site, run.jobId, run.question.options).join(', ')}.`);
  if (kindOf(run)) return new UsageError(`${refused} ${answeredWith(site, run)}.`);
  return new UsageError(`${refused} No question waits on ${q(site)} (${howItIs(run)}).`);
}

/** --answer / --choose: a question must wait on the latest run. Returns that run and its question. */
export async function requireQuestion(
  ctx: Context,
  site: string,
  flag: string,
  job?: string,
): Promise<LatestRun & { question: NonNullable<LatestRun['question']> }> {
  const run = await requireWaiting(ctx, site, flag, 'question', job);
  return { ...run, question: run.question! };
}

/** --approve / --revise: a plan must wait on the latest run. */
export async function requirePlan(ctx: Context, site: string, flag: string, job?: string): Promise<LatestRun> {
  return requireWaiting(ctx, site, flag, 'plan', job);
}
