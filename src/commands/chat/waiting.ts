// What the site's agent waits for. The service takes the next message as the reply to a
// waiting question or plan (a build message approves a plan, a plan message revises it), so:
// a reply flag with nothing waiting is refused, and a new message while something waits is
// confirmed first (refused without a prompt), since it would answer it unseen.
import type { Context } from '../../context.js';
import { PlanPendingError, QuestionPendingError, UsageError } from '../../errors.js';
import { asRecord, pickString } from '../../io/records.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { itemsOf } from '../../api/paginate.js';
import { applyAnswer, initialRunState, outcomeOf, planOf, type JobAnswer } from '../../render/reducer.js';
import type { Question } from '../../render/events.js';
import { chatCommand, shellQuote } from '../job/commands.js';
import type { Mode } from './send.js';

/** The site's latest run and what it left waiting for a reply, if anything. */
export interface LatestRun {
  jobId: string;
  /** Its state, or how it ended (question and plan: waiting for a reply). */
  outcome: string;
  question?: Question;
  plan?: string;
}

/** The newest run of the site, from its history (our emulator's messages carry jobId). */
async function latestJobId(ctx: Context, projectId: string): Promise<string | undefined> {
  const { envelope } = await ctx.api().call('list_messages', { projectId }, { signal: ctx.signal });
  for (const m of itemsOf(envelope.data)) {
    const id = pickString(asRecord(m), 'jobId');
    if (id) return id;
  }
  return undefined;
}

/**
 * Undefined when the history names no run: then nothing can be checked, and what the user
 * asked is sent as asked.
 */
export async function latestRun(ctx: Context, projectId: string): Promise<LatestRun | undefined> {
  const jobId = await latestJobId(ctx, projectId);
  if (!jobId) return undefined;
  const { envelope } = await ctx
    .api()
    .call<JobAnswer>('get_job', { projectId, jobId, cursor: 0 }, { signal: ctx.signal });
  const state = applyAnswer(initialRunState(jobId), (envelope.data ?? {}) as JobAnswer).state;
  const outcome = outcomeOf(state);
  if (outcome === 'question') return { jobId, outcome, question: state.question };
  if (outcome === 'plan') return { jobId, outcome, plan: planOf(state) };
  return { jobId, outcome: outcome === 'ongoing' ? state.state : outcome };
}

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

/** The flags that answer what waits, as a sentence. */
function answeredWith(site: string, run: LatestRun): string {
  if (run.question) {
    const choose = run.question.options.length ? `${chatCommand(site, '--choose', 'N')} or ` : '';
    return `The agent asks: ${sanitizeInline(run.question.question)} Answer with ${choose}${chatCommand(site, '--answer', shellQuote('…'))}`;
  }
  return `Its plan waits: approve it with ${chatCommand(site, '--approve')}, or ask for changes with ${chatCommand(site, '--revise', shellQuote('…'))}`;
}

/** --answer / --choose: a question must wait (on the run named, when --job names one). Returns it. */
export async function requireQuestion(
  ctx: Context,
  site: string,
  flag: string,
  jobId?: string,
): Promise<Question | undefined> {
  const run = await latestRun(ctx, site);
  if (!run) return undefined;
  if (jobId !== undefined && jobId !== run.jobId) {
    throw new UsageError(
      `Run ${sanitizeInline(jobId)} is not the latest run of ${site} (${sanitizeInline(run.jobId)} is), so its question no longer waits; ${flag} sent nothing.`,
    );
  }
  if (run.question) return run.question;
  const instead =
    run.plan !== undefined
      ? ` ${answeredWith(site, run)}.`
      : ` To send it as a new message: ${chatCommand(site, shellQuote('…'))}`;
  throw new UsageError(`No question waits for an answer on ${site} (${howItIs(run)}); ${flag} sent nothing.${instead}`);
}

/** --approve / --revise: a plan must wait. */
export async function requirePlan(ctx: Context, site: string, flag: string): Promise<void> {
  const run = await latestRun(ctx, site);
  if (!run || run.plan !== undefined) return;
  const instead = run.question
    ? ` ${answeredWith(site, run)}.`
    : ` To ask for a plan: ${chatCommand(site, '--plan', shellQuote('…'))}`;
  throw new UsageError(`No plan waits for approval on ${site} (${howItIs(run)}); ${flag} sent nothing.${instead}`);
}

/**
 * A new message while a question or plan waits would be taken as its reply. --yes sends it
 * so; a terminal asks; otherwise it is refused with 10 (question) or 11 (plan), nothing sent.
 */
export async function confirmReplyByMessage(ctx: Context, site: string, mode: Mode): Promise<void> {
  const run = await latestRun(ctx, site);
  if (!run || (!run.question && run.plan === undefined)) return;
  const what = run.question ? 'A question' : 'A plan';
  const taken = run.question
    ? 'its answer'
    : mode === 'plan'
      ? 'a revision of it'
      : 'its approval, and build it with your words added';
  const sentence = `${what} from run ${sanitizeInline(run.jobId)} waits on ${site}, and the agent would take this message as ${taken}.`;
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
    { jobId: run.jobId },
  );
}
