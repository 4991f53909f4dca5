// What waits on a site's latest run (shared/run/latest-run.ts), in words: how the run ended, whether
// a question or a plan waits, and the commands that answer it, each whole and backquoted. The
// reply flags (reply-target.ts) and a new message (waiting.ts) say it so.
import { sanitizeInline } from '../../../io/sanitize.js';
import { flag as opt } from '../../../io/shell.js';
import { isUnread } from '../../../service/read.js';
import type { Decision, LatestRun } from '../run/latest-run.js';
import { agentAsks, chatCommand } from '../run/next-steps.js';
import type { ReplyTo } from './reply-key.js';

const q = sanitizeInline;

const ENDED: Record<string, string> = {
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'was cancelled',
  question: 'ended with a question',
  plan: 'ended with a plan',
};

/** How the run ended, as part of a sentence: `its latest run, J, ended with a question`. */
export function howItIs(run: LatestRun): string {
  return `its latest run, ${q(run.jobId)}, ${ENDED[run.outcome] ?? `is ${q(run.outcome)}`}`;
}

/** What waits on the run for a reply: its question, its plan, or nothing. */
export const kindOf = (run: LatestRun): ReplyTo['kind'] | undefined =>
  run.question ? 'question' : run.plan !== undefined ? 'plan' : undefined;

/**
 * The commands that pick each suggested answer, whole, each with its answer beside it: `…
 * --choose 1 --job J` (Red), `… --choose 2 --job J` (Blue). Backquoted: a command to copy is
 * never broken when the sentence is wrapped (src/io/width.ts).
 */
export function choices(site: string, jobId: string, options: readonly string[]): string[] {
  const job = opt('--job', jobId);
  return options.map((o, i) => `\`${chatCommand(site, opt('--choose', String(i + 1)), job)}\` (${sanitizeInline(o)})`);
}

/** The commands that answer what waits, as a sentence; each names the run with --job. */
export function answeredWith(site: string, run: LatestRun): string {
  const job = opt('--job', run.jobId);
  if (run.question) {
    const { options } = run.question;
    const own = `\`${chatCommand(site, opt('--answer', '…'), job)}\``;
    const words = run.question.question;
    const how = options.length
      ? `Answer with one of ${choices(site, run.jobId, options).join(', ')}, or in your own words (in place of …) with ${own}`
      : `Answer in your own words (in place of …) with ${own}`;
    return `${agentAsks(isUnread(words) ? null : words)} ${how}`;
  }
  return `Its plan waits: approve it with \`${chatCommand(site, opt('--approve'), job)}\`, or ask for changes with \`${chatCommand(site, opt('--revise', '…'), job)}\``;
}

/** The run named is not the latest, so what it asked no longer waits. */
export function notLatestSentence(site: string, d: Extract<Decision, { kind: 'notLatest' }>): string {
  return `Run ${q(d.named)} is not the latest run of ${q(site)} (${q(d.latest)} is, among the runs started from here), so what it asked no longer waits`;
}
