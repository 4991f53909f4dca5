// The implementation of `sitebuilder chat` (see chat.ts for the definition and the help).
import { text as readStream } from 'node:stream/consumers';
import type { Context } from '../../context.js';
import { formatCount, LIMITS } from '../../api/limits.js';
import { UsageError } from '../../errors.js';
import { ID_MAX_LENGTH } from '../../input.js';
import { noPromptReason } from '../../io/prompter.js';
import { PROMPT_FILE_MAX_BYTES, readTextFile } from '../../io/read-text-file.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { sb } from '../../io/shell.js';
import { APPROVE_TEXT, chosenAnswer } from '../shared/conversation/answers.js';
import { interactiveChat } from './interactive.js';
import { siteExists } from './site-exists.js';
import type { Mode } from '../shared/conversation/send.js';
import { type ChatOptions, ChoosePlaceholder } from './options.js';
import type { ReplyTo } from '../shared/conversation/reply-key.js';
import { printAnswerLater, runTurn } from '../shared/conversation/turn.js';
import { placeholderChoice, requirePlan, requireQuestion } from '../shared/conversation/reply-target.js';
import { confirmNewMessage } from '../shared/conversation/waiting.js';

/** Characters no id has (input.ts refuses them in ids), or a length none has: such an argument is a message. */
const notAnId = (arg: string): boolean => /[\s\p{Cc}\p{Cf}]/u.test(arg) || arg.length > ID_MAX_LENGTH;

/** Exit 2 when a message comes without a site to send it to: both forms, in one sentence. */
function noSiteFor(message: string, why: string): UsageError {
  const m = message.length > 60 ? '…' : message;
  return new UsageError(
    `${why}, so nothing was sent: name the site, as in \`${sb('chat', 'SITE', m)}\`, or set a default site with \`${sb('site use', 'SITE')}\`, then run \`${sb('chat', m)}\`.`,
  );
}

/**
 * Which site, and which message. `chat <site> <message>` is plain. A lone argument may be either:
 * one that cannot be an id (a space, a control character) is the message for the default site;
 * one that can is the site, and when the service has no such site nothing is sent (exit 2, with
 * the closest ids the token reaches: site-suggest.ts). A mistyped id never becomes a paid message.
 */
async function siteAndMessage(
  opts: ChatOptions,
  ctx: Context,
  otherwise: boolean,
): Promise<{ site: string; message?: string }> {
  const lone = opts.site !== undefined && opts.message === undefined && !otherwise ? opts.site : undefined;
  if (lone === undefined || lone.trim() === '') return { site: ctx.site(opts.site), message: opts.message };
  const fallback = ctx.defaultSite();
  if (lone === fallback) return { site: ctx.site(lone) };
  if (notAnId(lone.trim())) {
    if (!fallback) throw noSiteFor(lone, 'No default site is set to send this message to');
    return understood(ctx, ctx.site(undefined), lone);
  }
  const site = ctx.site(lone);
  if (await siteExists(ctx, site)) return { site };
  throw await noSuchSite(ctx, site, fallback);
}

/** Exit 2 for a lone argument that names no site: the closest ids, and how to send it as a message. */
async function noSuchSite(ctx: Context, typed: string, fallback: string | undefined): Promise<UsageError> {
  const { similarSites } = await import('./site-suggest.js');
  const near = await similarSites(ctx, typed);
  const meant = near.length
    ? `did you mean ${near.map(sanitizeInline).join(' or ')}?`
    : `\`${sb('site list')}\` shows the sites this token reaches.`;
  const asMessage = fallback
    ? ` To send it as a message to ${sanitizeInline(fallback)}, the default site: \`${sb('chat', fallback, typed)}\``
    : '';
  return new UsageError(`No site has the id ${sanitizeInline(typed)}, so nothing was sent; ${meant}${asMessage}`);
}

/** Says how a lone argument was understood, before anything is sent. */
function understood(ctx: Context, site: string, message: string): { site: string; message: string } {
  ctx.io.info(`Sending it as a message to ${sanitizeInline(site)}, the default site.`);
  return { site, message };
}

async function messageOf(opts: ChatOptions, given: string | undefined, ctx: Context): Promise<string | undefined> {
  if (opts.messageFile === undefined) return given;
  if (given !== undefined)
    throw new UsageError('Give the message either as an argument or with --message-file, not both.');
  return readMessageFile(opts.messageFile, ctx);
}

/** --message-file: a file, or `-` for standard input; unreadable, nothing is sent. */
export async function readMessageFile(file: string, ctx: Context): Promise<string> {
  if (file === '-') return readStream(ctx.io.stdin);
  return readTextFile(file, { flag: '--message-file', maxBytes: PROMPT_FILE_MAX_BYTES });
}

/** The checks of the flags alone, made first: before a lone argument is looked up as a site. */
function checkFlags(opts: ChatOptions): void {
  if (opts.job !== undefined && !/^[^\s\p{Cc}\p{Cf}]{1,256}$/u.test(opts.job))
    throw new UsageError(`--job takes a job id (as printed with the question or plan); nothing was sent.`);
  if (opts.plan && (opts.answer !== undefined || opts.choose !== undefined || opts.approve))
    throw new UsageError('--plan goes with a message or --revise, not with an answer or --approve.');
  for (const [what, v] of [
    ['--answer', opts.answer],
    ['--revise', opts.revise],
    ['message', opts.message],
  ] as const)
    checkText(what, v);
}

function checkText(what: string, v: string | undefined): void {
  if (v === undefined) return;
  if (!v.trim()) throw new UsageError(`The ${what} is empty; say what the agent should do. Nothing was sent.`);
  if (v.length > LIMITS.promptMax)
    throw new UsageError(
      `The ${what} is ${formatCount(v.length)} characters long; the service takes at most ${formatCount(LIMITS.promptMax)}. Nothing was sent.`,
    );
}

/** Everything that can be checked here is, before the first request (issue: bad input costs nothing). */
function checkLocally(opts: ChatOptions, message: string | undefined, replies: number): void {
  if (replies > 1) throw new UsageError('Give one of: a message, --answer, --choose, --approve or --revise.');
  if (opts.job !== undefined && replies === 0)
    throw new UsageError(
      '--job goes with a message, --answer, --choose, --approve or --revise (it names the site’s latest run).',
    );
  checkText('message', message);
}

export async function runChat(opts: ChatOptions, ctx: Context): Promise<number> {
  const otherwise =
    opts.messageFile !== undefined ||
    opts.answer !== undefined ||
    opts.choose !== undefined ||
    Boolean(opts.approve) ||
    opts.revise !== undefined;
  checkFlags(opts);
  // --job names the run a message or a reply answers; a lone argument that may be an id is the
  // site (siteAndMessage), so with nothing else there is nothing for --job to go with.
  const lone = opts.site !== undefined && opts.message === undefined && !otherwise;
  if (opts.job !== undefined && !otherwise && opts.message === undefined && !(lone && notAnId(opts.site!.trim())))
    checkLocally(opts, undefined, 0);
  const { site, message: given } = await siteAndMessage(opts, ctx, otherwise);
  const message = await messageOf(opts, given, ctx);
  const replies = [
    message !== undefined,
    opts.answer !== undefined,
    opts.choose !== undefined,
    Boolean(opts.approve),
    opts.revise !== undefined,
  ].filter(Boolean).length;
  checkLocally(opts, message, replies);
  if (replies === 0) {
    if (!ctx.prompter.canPrompt()) {
      const why = noPromptReason(ctx.io, ctx.env);
      throw new UsageError(
        `A conversation needs a terminal${why ? `, and prompts are off here: ${why}` : ''}. Here, pass the message (or --answer, --choose, --approve, --revise): ${sb('chat', site, '…')}`,
      );
    }
    return interactiveChat(ctx, site, {
      plan: Boolean(opts.plan),
      timeoutMs: opts.timeout,
      reconnectForMs: opts.reconnectFor,
    });
  }
  // Each reply checks that what it answers waits on the latest run; a new message, that nothing does.
  let prompt: string;
  let mode: Mode = 'build';
  // What the message answers, when it is a reply: its Idempotency-Key comes from it (shared/conversation/reply-key.ts).
  let replyTo: ReplyTo | undefined;
  if (message !== undefined) {
    [prompt, mode] = [message, opts.plan ? 'plan' : 'build'];
    replyTo = await confirmNewMessage(ctx, site, mode, opts.job);
  } else if (opts.answer !== undefined) {
    prompt = opts.answer;
    replyTo = { jobId: (await requireQuestion(ctx, site, '--answer', opts.job)).jobId, kind: 'question' };
  } else if (opts.choose !== undefined) {
    if (opts.choose instanceof ChoosePlaceholder) throw await placeholderChoice(ctx, site, opts.choose.typed, opts.job);
    const chosen = await chosenAnswer(ctx, site, opts.choose, opts.job);
    [prompt, replyTo] = [chosen.prompt, { jobId: chosen.jobId, kind: 'question' }];
  } else {
    const flag = opts.approve ? '--approve' : '--revise';
    [prompt, mode] = opts.approve ? [APPROVE_TEXT, 'build'] : [opts.revise!, 'plan'];
    replyTo = { jobId: (await requirePlan(ctx, site, flag, opts.job)).jobId, kind: 'plan' };
  }
  const r = await runTurn(ctx, {
    projectId: site,
    prompt,
    mode,
    follow: opts.follow !== false,
    timeoutMs: opts.timeout,
    idempotencyKey: opts.idempotencyKey,
    replyTo,
    reconnectForMs: opts.reconnectFor,
  });
  if (r.pending) printAnswerLater(ctx, r.pending);
  return r.exitCode;
}
