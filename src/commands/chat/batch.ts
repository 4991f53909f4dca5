// `sitebuilder chat` with several sites (docs/scripting.md "Many sites at once"): the same message
// to many sites' agents. Sites named as arguments are looked up first (an unquoted message's
// words would be taken for sites): an unknown one exits 2, nothing sent. More than a handful of
// sites is confirmed first (each run costs credits): on a terminal, or --yes; otherwise exit 5
// and nothing is sent. Then each site on its
// own, exactly as for one site: what waits on its latest run is checked (waiting.ts: a site where
// a question or plan waits, or where that cannot be told, gets nothing without --yes, and is
// reported with the commands that answer, naming the run with --job); the message is sent
// (send.ts) and its run followed in its own lane of the scheduler (api/scheduler.ts) until it
// ends. A question or plan at the end is reported with its reply commands and blocks no other
// site. Nothing here asks per site: prompts would interleave.
import { BATCH_KEY_MAX, formatCount, isIdempotencyKey, LIMITS } from '../../api/limits.js';
import { pollUntil, Reconnect } from '../../api/poll.js';
import type { Context } from '../../context.js';
import {
  ApiError,
  CliError,
  ConfirmationNeededError,
  ExitCode,
  InterruptedError,
  PendingError,
  PlanPendingError,
  QuestionPendingError,
  UsageError,
} from '../../errors.js';
import type { Prompter } from '../../io/prompter.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { formatElapsed } from '../../io/spinner.js';
import {
  applyAnswer,
  creditsOfRun,
  failureMessage,
  initialRunState,
  isEnded,
  outcomeOf,
  type RunState,
} from '../../render/reducer.js';
import type { Pending } from '../../render/run-view.js';
import { DEFAULT_CONCURRENCY, type FleetFlags } from '../fleet/options.js';
import type { SiteOutcome } from '../fleet/report.js';
import { notStartedOutcome, runFleet, type SiteRow, withBatchGate } from '../fleet/run.js';
import { gatherSites } from '../fleet/sites.js';
import { flag, sb, shellQuote } from '../../io/shell.js';
import { agentAsks, pendingOf, waitingOn } from '../job/commands.js';
import { watchCommand } from '../job/follow.js';
import { type ChatOptions, readMessageFile } from './run.js';
import { noteRunEnd } from '../job/known-runs.js';
import { type ReplyTo, replyKey, replyRefused } from './reply-key.js';
import { sendMessage, type Mode } from './send.js';
import { readJobAnswer } from '../../service/job.js';
import { siteExists } from './site-exists.js';
import { confirmNewMessage } from './waiting.js';

/** More sites than this need a confirmation (each run costs credits). */
export const HANDFUL = 5;

export interface ChatBatchOptions extends ChatOptions, FleetFlags {
  /** Positional arguments past the site and the message. */
  more?: string[];
}

/** Per site, nothing is asked: a site that would need a prompt is reported and skipped. */
const NO_PROMPTS: Prompter = {
  canPrompt: () => false,
  require(what, flagHint) {
    throw new ConfirmationNeededError(`${what} needs an answer and no prompt is possible here; ${flagHint}.`);
  },
  input: () => Promise.reject(new ConfirmationNeededError('No prompt with several sites.')),
  password: () => Promise.reject(new ConfirmationNeededError('No prompt with several sites.')),
  confirm: () => Promise.reject(new ConfirmationNeededError('No prompt with several sites.')),
  select: () => Promise.reject(new ConfirmationNeededError('No prompt with several sites.')),
  multiselect: () => Promise.reject(new ConfirmationNeededError('No prompt with several sites.')),
};

/** The sites and the message of the command line: the last argument is the message, unless --message-file gives it. */
function sitesAndMessage(opts: ChatBatchOptions, positionals: string[]): { sites: string[]; message?: string } {
  if (opts.messageFile !== undefined) return { sites: positionals };
  if (positionals.length === 0) return { sites: [] };
  return { sites: positionals.slice(0, -1), message: positionals[positionals.length - 1] };
}

async function readMessage(opts: ChatBatchOptions, given: string | undefined, ctx: Context): Promise<string> {
  if (opts.messageFile === undefined) {
    if (given === undefined)
      throw new UsageError('With several sites, give the message as the last argument (or with --message-file).');
    return given;
  }
  return readMessageFile(opts.messageFile, ctx);
}

function checkLocally(opts: ChatBatchOptions, message: string, siteArgs: string[]): void {
  if (
    opts.answer !== undefined ||
    opts.choose !== undefined ||
    opts.approve ||
    opts.revise !== undefined ||
    opts.job !== undefined
  )
    throw new UsageError(
      '--answer, --choose, --approve, --revise and --job answer one run of one site; with several sites, send a message. Nothing was sent.',
    );
  if (siteArgs.includes('-') && opts.messageFile === '-')
    throw new UsageError(
      'Standard input cannot hold both the site ids (-) and the message (--message-file -). Nothing was sent.',
    );
  if (!message.trim()) throw new UsageError('The message is empty; say what the agents should do. Nothing was sent.');
  if (message.length > LIMITS.promptMax)
    throw new UsageError(
      `The message is ${formatCount(message.length)} characters long; the service takes at most ${formatCount(LIMITS.promptMax)}. Nothing was sent.`,
    );
  if (opts.idempotencyKey !== undefined && !isIdempotencyKey(opts.idempotencyKey, BATCH_KEY_MAX))
    throw new UsageError(
      'With several sites, --idempotency-key takes 1 to 200 visible characters (each site sends KEY-SITE); nothing was sent.',
    );
}

/** How many sites named on the command line are looked up at once (the scheduler paces them). */
const LOOKUPS_AT_ONCE = 8;

/** "a", "a or b", "a, b or c". */
const either = (ids: string[]): string =>
  ids.length < 2 ? (ids[0] ?? '') : `${ids.slice(0, -1).join(', ')} or ${ids[ids.length - 1]}`;

/**
 * Sites named as arguments that the service does not know: exit 2, nothing sent. An unquoted
 * message (`chat s_1 hello there friend`) reads as sites `hello` and `there` and the message
 * `friend`; where the unknown ids are the last ones before the message, the sentence shows the
 * command with the message quoted. The ids come from the command line, checked by checkId.
 */
/** Whether the unknown ids are the last arguments before the message: the words of an unquoted message. */
function areMessageWords(siteArgs: string[], unknown: ReadonlySet<string>, message?: string): boolean {
  let trailing = 0;
  while (trailing < siteArgs.length && unknown.has(siteArgs[siteArgs.length - 1 - trailing])) trailing++;
  const before = siteArgs.slice(0, siteArgs.length - trailing);
  return message !== undefined && trailing > 0 && !before.some((a) => unknown.has(a));
}

export function unknownSitesError(
  siteArgs: string[],
  unknown: ReadonlySet<string>,
  message?: string,
  near: ReadonlyMap<string, string[]> = new Map(),
): UsageError {
  const named = [...new Set(siteArgs.filter((a) => unknown.has(a)))];
  let trailing = 0;
  while (trailing < siteArgs.length && unknown.has(siteArgs[siteArgs.length - 1 - trailing])) trailing++;
  const head = `No site has the id ${either(named.map(sanitizeInline))}, so nothing was sent`;
  const before = siteArgs.slice(0, siteArgs.length - trailing);
  if (!areMessageWords(siteArgs, unknown, message)) {
    const meant = named
      .filter((id) => near.get(id)?.length)
      .map((id) => `${near.get(id)!.map(sanitizeInline).join(' or ')} for ${sanitizeInline(id)}`);
    const guess = meant.length ? ` Did you mean ${meant.join(', ')}?` : '';
    return new UsageError(
      `${head}; check the ids (\`${sb('site list')}\` shows the sites this token reaches).${guess}`,
    );
  }
  const words = [...siteArgs.slice(before.length), message].join(' ');
  const command = sb('chat', ...(before.length ? before : ['SITE']), words.length > 60 ? '…' : words);
  const what =
    words.length > 60
      ? `the words from ${sanitizeInline(siteArgs[before.length])} on are`
      : `"${sanitizeInline(words)}" is`;
  return new UsageError(`${head}; if ${what} the message, quote it: ${command}`);
}

/**
 * Several sites named as arguments: each must be one the token can see, before anything is
 * sent. One read a site (siteExists), a few at once, each at the batch's scheduler.
 */
async function requireKnownSites(ctx: Context, siteArgs: string[], sites: string[], message?: string): Promise<void> {
  const unknown = new Set<string>();
  let next = 0;
  const lookUp = async () => {
    while (next < sites.length) {
      const site = sites[next++];
      if (!(await siteExists(ctx, site))) unknown.add(site);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUPS_AT_ONCE, sites.length) }, lookUp));
  if (unknown.size === 0) return;
  // A few mistyped ids: the closest the token reaches, from one bounded read (site-suggest.ts).
  const near = new Map<string, string[]>();
  if (unknown.size <= 3 && !areMessageWords(siteArgs, unknown, message)) {
    const { closestIds, reachableSiteIds } = await import('./site-suggest.js');
    const ids = await reachableSiteIds(ctx);
    for (const id of unknown) near.set(id, closestIds(id, ids));
  }
  throw unknownSitesError(siteArgs, unknown, message, near);
}

/** More than a handful of sites: confirmed on a terminal, or --yes; otherwise exit 5, nothing sent. */
async function confirmCredits(ctx: Context, count: number): Promise<void> {
  if (count <= HANDFUL) return;
  const what = `This message goes to ${count} sites, and each site's run costs credits`;
  if (ctx.globals.yes) {
    ctx.io.info(`${what}; sending it (--yes).`);
    return;
  }
  if (!ctx.prompter.canPrompt())
    throw new ConfirmationNeededError(`${what}; nothing was sent. Add --yes to send it.`, { sites: count });
  ctx.io.errLine(
    `${what}. Sites where a question or plan waits, or where that cannot be told, get nothing and are reported (--yes sends there too, as the reply).`,
  );
  if (!(await ctx.prompter.confirm(`Send it to ${count} sites?`, false)))
    throw new InterruptedError('Nothing was sent.');
}

/** The question a site waits on, with its options numbered as the --choose commands below it pick them. */
function askedNote(pending: Pending | undefined): string {
  if (pending?.kind !== 'question') return 'The agent asks a question.';
  const options = pending.options.map((o, i) => `${i + 1}. ${sanitizeInline(o)}`).join(' · ');
  return `${agentAsks(pending.question)}${options ? ` Options (the --choose commands below pick them): ${options}` : ''}`;
}

/** The commands that answer what waits on run `jobId`, each naming it with --job (--choose first where there are options). */
function replyCommands(site: string, jobId: string, kind: 'question' | 'plan', options: string[] = []): string[] {
  const w = waitingOn(site, jobId, kind === 'question' ? { question: { question: '', options } } : { plan: '' });
  return w.kind === 'question' ? w.answer : [w.approve, w.revise];
}

interface Followed {
  state: RunState;
  timedOut: boolean;
}

/** Follows the run quietly (the batch shows rows, not transcripts), in its own lane. */
async function followRun(
  ctx: Context,
  site: string,
  jobId: string,
  o: ChatBatchOptions,
  row: SiteRow,
): Promise<Followed> {
  let state = { ...initialRunState(jobId), state: 'running' };
  // A run just started is busy: its first read comes after the busy wait, not the idle one.
  let changed = true;
  const r = await pollUntil<RunState>({
    clock: ctx.clock,
    signal: ctx.signal,
    timeoutMs: o.timeout ?? Number.POSITIVE_INFINITY,
    lane: `job:${site}:${jobId}`,
    initial: state,
    read: async (call) => {
      const { envelope } = await ctx
        .api()
        .call('get_job', { projectId: site, jobId, cursor: state.cursor }, { signal: ctx.signal, ...call });
      const applied = applyAnswer(state, readJobAnswer(envelope.data));
      changed = applied.events.length > 0 || applied.stateChanged || applied.reset;
      state = applied.state;
      return state;
    },
    reconnect: new Reconnect({ clock: ctx.clock, forMs: o.reconnectFor, say: row.say }),
    onRead: (s) => row.state(s.state),
    done: (s) => isEnded(s.state),
    changed: () => changed,
  });
  if (!r.timedOut) await noteRunEnd(ctx, site, jobId, outcomeOf(r.value));
  return { state: r.value, timedOut: r.timedOut };
}

async function chatOne(ctx: Context, o: ChatBatchOptions, prompt: string, mode: Mode, site: string, row: SiteRow) {
  const startedAt = ctx.clock.now();
  let jobId: string | null = null;
  let state: RunState | undefined;
  const out = (outcome: string, exitCode: number, more: Partial<SiteOutcome> = {}): SiteOutcome => ({
    site,
    outcome,
    exitCode,
    ref: more.ref ?? jobId ?? '',
    note: more.note,
    next: more.next,
    record: {
      jobId,
      state: state?.state ?? null,
      creditsCharged: state ? (creditsOfRun(state) ?? null) : null,
      ...more.record,
    },
    elapsedMs: ctx.clock.now() - startedAt,
  });
  const siteCtx: Context = { ...ctx, prompter: NO_PROMPTS };
  row.state('checking');
  let replyTo: ReplyTo | undefined;
  try {
    replyTo = await confirmNewMessage(siteCtx, site, mode);
  } catch (err) {
    if (ctx.signal.aborted) return out('not-started', ExitCode.interrupted, { note: 'Not sent: interrupted first.' });
    const waitingRun = (err as CliError).details?.jobId;
    if ((err instanceof QuestionPendingError || err instanceof PlanPendingError) && typeof waitingRun === 'string') {
      const kind = err instanceof QuestionPendingError ? 'question' : 'plan';
      const options = (err as CliError).details?.options;
      return out('skipped', err.exitCode, {
        ref: waitingRun,
        // Short, beside a row: the commands that answer follow it (the single-site sentence holds them too).
        note: `Nothing was sent: a ${kind} waits on run ${sanitizeInline(waitingRun)}, and the agent would take the message as the reply (--yes sends it so).`,
        next: replyCommands(site, waitingRun, kind, Array.isArray(options) ? options.map(String) : []),
        record: { waiting: kind, jobId: waitingRun },
      });
    }
    if (err instanceof ConfirmationNeededError)
      return out('skipped', err.exitCode, { note: sanitizeInline(err.message) });
    if (err instanceof CliError) return out('refused', err.exitCode, { note: sanitizeInline(err.message) });
    throw err;
  }
  row.state('sending');
  let sent: Awaited<ReturnType<typeof sendMessage>>;
  try {
    try {
      sent = await sendMessage(
        siteCtx,
        site,
        prompt,
        mode,
        o.idempotencyKey === undefined ? replyTo && replyKey(siteCtx, site, replyTo) : `${o.idempotencyKey}-${site}`,
      );
    } catch (err) {
      throw replyTo && err instanceof ApiError ? await replyRefused(siteCtx, site, replyTo, err) : err;
    }
  } catch (err) {
    if (ctx.signal.aborted)
      return out('detached', ExitCode.interrupted, {
        note: `Interrupted while the message was being sent to ${site}; it may have been sent.`,
        next: [sb('message list', site)],
      });
    if (err instanceof CliError) return out('refused', err.exitCode, { note: sanitizeInline(err.message) });
    throw err;
  }
  if (sent.queued)
    return out('queued', o.follow === false ? ExitCode.ok : ExitCode.pending, {
      ref: sent.queueItemId,
      note: `The agent is busy: the message waits in the queue${sent.queuePosition === null ? '' : ` at position ${sent.queuePosition}`}; it runs on its own (do not send it again).`,
      next: [sb('queue list', site)],
      record: { queueItemId: sent.queueItemId, queuePosition: sent.queuePosition },
    });
  jobId = sent.jobId;
  const watch = [watchCommand(site, jobId)];
  if (o.follow === false) return out('started', ExitCode.ok, { next: watch });
  row.state('running');
  let lastSeen = 'running';
  let r: Followed;
  try {
    r = await followRun(ctx, site, jobId, o, {
      ...row,
      state: (t) => {
        lastSeen = t;
        row.state(t);
      },
    });
  } catch (err) {
    if (ctx.signal.aborted)
      return out('detached', ExitCode.interrupted, {
        note: `Stopped following; the run goes on (last seen: ${sanitizeInline(lastSeen)}).`,
        next: watch,
      });
    if (err instanceof PendingError)
      return out('pending', ExitCode.pending, { note: sanitizeInline(err.message), next: watch });
    if (err instanceof CliError) return out('failed', err.exitCode, { note: sanitizeInline(err.message), next: watch });
    throw err;
  }
  state = r.state;
  if (r.timedOut)
    return out('pending', ExitCode.pending, {
      note: `Stopped following after ${formatElapsed(ctx.clock.now() - startedAt)} (--timeout); the run goes on.`,
      next: watch,
    });
  const pending = pendingOf(state, site, jobId);
  switch (outcomeOf(state)) {
    case 'question':
      return out('question', ExitCode.questionPending, {
        note: askedNote(pending),
        next: pending?.kind === 'question' ? pending.answer : replyCommands(site, jobId, 'question'),
        record: { pending: pending ?? null },
      });
    case 'plan':
      return out('plan', ExitCode.planPending, {
        note: 'Its plan waits for approval.',
        next: replyCommands(site, jobId, 'plan'),
        record: { pending: pending ?? null },
      });
    case 'failed':
      return out('failed', ExitCode.jobFailed, {
        note: sanitizeInline(failureMessage(state)),
        record: { error: state.error ?? null },
      });
    case 'cancelled':
      return out('cancelled', ExitCode.failure, { note: 'The run was cancelled (not from here).' });
    default:
      return out('succeeded', ExitCode.ok);
  }
}

/** `chat` with several sites; `positionals` are the site and message arguments in the order typed. */
export async function runChatBatch(opts: ChatBatchOptions, positionals: string[], ctx: Context): Promise<number> {
  const { sites: siteArgs, message: given } = sitesAndMessage(opts, positionals);
  const message = await readMessage(opts, given, ctx);
  checkLocally(opts, message, siteArgs);
  // The message in a command shown for reading: a long one is left to fill in.
  const short = message.length > 60 ? '…' : message;
  const shortMessage = shellQuote(short);
  return withBatchGate(ctx, async (gate) => {
    const sites = await gatherSites(ctx, siteArgs, opts, (args) => `sitebuilder chat ${args} ${shortMessage}`);
    if (sites.length === 0) {
      ctx.io.info(`Workspace ${opts.workspace} has no site; nothing was sent.`);
      return ExitCode.ok;
    }
    // Sites typed as arguments may be words of an unquoted message: looked up first. One site
    // has its own rule (run.ts); - and --all-sites give ids, not words.
    const typed = !opts.allSites && siteArgs[0] !== '-' && sites.length > 1;
    const mode: Mode = opts.plan ? 'plan' : 'build';
    return runFleet(ctx, gate, {
      title: 'Chat with',
      // The same message, mode and --yes; on standard input a long message is left to fill in.
      again: (ids) =>
        sb(
          'chat',
          ...(ids ?? ['-']),
          ...(opts.plan ? [flag('--plan')] : []),
          ...(ctx.globals.yes ? [flag('--yes')] : []),
          ids ? message : short,
        ),
      sites,
      async prepare() {
        if (typed) await requireKnownSites(ctx, siteArgs, sites, given);
        await confirmCredits(ctx, sites.length);
      },
      concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY,
      failFast: opts.failFast,
      work: (site, row) => chatOne(ctx, opts, message, mode, site, row),
      notStarted: (site, why) => ({
        ...notStartedOutcome(site, why, 'Not sent'),
        next: [sb('chat', site, ...(opts.plan ? [flag('--plan')] : []), message)],
        record: { jobId: null, state: null, creditsCharged: null },
      }),
    });
  });
}
