// The implementation of `sitebuilder chat` (see chat.ts for the definition and the help).
import { readFile } from 'node:fs/promises';
import { text as readStream } from 'node:stream/consumers';
import type { Context } from '../../context.js';
import { formatCount, LIMITS } from '../../api/limits.js';
import { UsageError } from '../../errors.js';
import { shellQuote } from '../job/commands.js';
import { APPROVE_TEXT, chosenAnswer } from './answers.js';
import { interactiveChat } from './interactive.js';
import type { Mode } from './send.js';
import { runTurn } from './turn.js';
import { confirmNewMessage, requirePlan, requireQuestion } from './waiting.js';

/** What `chat` takes (chat.ts declares the flags). */
export interface ChatOptions {
  site?: string;
  message?: string;
  messageFile?: string;
  plan?: boolean;
  answer?: string;
  choose?: number;
  job?: string;
  approve?: boolean;
  revise?: string;
  follow: boolean;
  timeout?: number;
  reconnectFor?: number;
  idempotencyKey?: string;
}

/** With a default site, `chat "add a page"` is a message, not a site id. */
function siteAndMessage(opts: ChatOptions, ctx: Context): { site: string; message?: string } {
  const hasDefault = Boolean(ctx.env.SITEBUILDER_SITE || ctx.profile().site);
  if (opts.site !== undefined && opts.message === undefined && hasDefault && /\s/.test(opts.site))
    return { site: ctx.site(undefined), message: opts.site };
  return { site: ctx.site(opts.site), message: opts.message };
}

async function messageOf(opts: ChatOptions, given: string | undefined, ctx: Context): Promise<string | undefined> {
  if (opts.messageFile === undefined) return given;
  if (given !== undefined)
    throw new UsageError('Give the message either as an argument or with --message-file, not both.');
  if (opts.messageFile === '-') return readStream(ctx.io.stdin);
  try {
    return await readFile(opts.messageFile, 'utf8');
  } catch (err) {
    throw new UsageError(
      `Cannot read ${opts.messageFile} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'}); nothing was sent.`,
    );
  }
}

/** Everything that can be checked here is, before the first request (issue: bad input costs nothing). */
function checkLocally(opts: ChatOptions, message: string | undefined, replies: number): void {
  if (replies > 1) throw new UsageError('Give one of: a message, --answer, --choose, --approve or --revise.');
  if (opts.job !== undefined && replies === 0)
    throw new UsageError(
      '--job goes with a message, --answer, --choose, --approve or --revise (it names the site’s latest run).',
    );
  if (opts.job !== undefined && !/^[^\s\p{Cc}\p{Cf}]{1,256}$/u.test(opts.job))
    throw new UsageError(`--job takes a job id (as printed with the question or plan); nothing was sent.`);
  if (opts.plan && (opts.answer !== undefined || opts.choose !== undefined || opts.approve))
    throw new UsageError('--plan goes with a message or --revise, not with an answer or --approve.');
  for (const [what, v] of [
    ['message', message],
    ['--answer', opts.answer],
    ['--revise', opts.revise],
  ] as const) {
    if (v === undefined) continue;
    if (!v.trim()) throw new UsageError(`The ${what} is empty; say what the agent should do. Nothing was sent.`);
    if (v.length > LIMITS.promptMax)
      throw new UsageError(
        `The ${what} is ${formatCount(v.length)} characters long; the service takes at most ${formatCount(LIMITS.promptMax)}. Nothing was sent.`,
      );
  }
  if (opts.idempotencyKey !== undefined && !/^[\x21-\x7e]{1,255}$/.test(opts.idempotencyKey))
    throw new UsageError('--idempotency-key takes 1 to 255 visible characters (no spaces); nothing was sent.');
}

export async function runChat(opts: ChatOptions, ctx: Context): Promise<number> {
  const { site, message: given } = siteAndMessage(opts, ctx);
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
      throw new UsageError(
        `A conversation needs a terminal; here, pass the message: sitebuilder chat ${shellQuote(site)} "…" (or --answer, --choose, --approve, --revise).`,
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
  if (message !== undefined) {
    [prompt, mode] = [message, opts.plan ? 'plan' : 'build'];
    await confirmNewMessage(ctx, site, mode, opts.job);
  } else if (opts.answer !== undefined) {
    prompt = opts.answer;
    await requireQuestion(ctx, site, '--answer', opts.job);
  } else if (opts.choose !== undefined) {
    prompt = await chosenAnswer(ctx, site, opts.choose, opts.job);
  } else {
    const flag = opts.approve ? '--approve' : '--revise';
    [prompt, mode] = opts.approve ? [APPROVE_TEXT, 'build'] : [opts.revise!, 'plan'];
    await requirePlan(ctx, site, flag, opts.job);
  }
  const r = await runTurn(ctx, {
    projectId: site,
    prompt,
    mode,
    follow: opts.follow !== false,
    timeoutMs: opts.timeout,
    idempotencyKey: opts.idempotencyKey,
    reconnectForMs: opts.reconnectFor,
  });
  return r.exitCode;
}
