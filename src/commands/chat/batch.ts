// `sitebuilder chat` with several sites (docs/scripting.md "Many sites at once"): the same message
// to many sites' agents. Sites named as arguments are looked up first (known-sites.ts: an
// unquoted message's words would be taken for sites): an unknown one exits 2, nothing sent. More
// than a handful of sites is confirmed first (each run costs credits): on a terminal, or --yes;
// otherwise exit 5 and nothing is sent. Then each site on its own, exactly as for one site
// (chat-one-site.ts). Nothing here asks per site: prompts would interleave.
import { BATCH_KEY_MAX, formatCount, isIdempotencyKey, LIMITS } from '../../api/limits.js';
import type { Context } from '../../context.js';
import { ConfirmationNeededError, ExitCode, InterruptedError, UsageError } from '../../errors.js';
import { flag, sb, shellQuote } from '../../io/shell.js';
import type { Mode } from '../shared/conversation/send.js';
import { DEFAULT_CONCURRENCY } from '../shared/fleet/options.js';
import { notStartedOutcome, runFleet, withBatchGate } from '../shared/fleet/run.js';
import { gatherSites } from '../shared/fleet/sites.js';
import { chatOne } from './chat-one-site.js';
import { requireKnownSites } from './known-sites.js';
import type { ChatOptions } from './options.js';
import { readMessageFile } from './run.js';

/** More sites than this need a confirmation (each run costs credits). */
export const HANDFUL = 5;

/** The sites and the message of the command line: the last argument is the message, unless --message-file gives it. */
function sitesAndMessage(opts: ChatOptions, positionals: string[]): { sites: string[]; message?: string } {
  if (opts.messageFile !== undefined) return { sites: positionals };
  if (positionals.length === 0) return { sites: [] };
  return { sites: positionals.slice(0, -1), message: positionals[positionals.length - 1] };
}

async function readMessage(opts: ChatOptions, given: string | undefined, ctx: Context): Promise<string> {
  if (opts.messageFile === undefined) {
    if (given === undefined)
      throw new UsageError('With several sites, give the message as the last argument (or with --message-file).');
    return given;
  }
  return readMessageFile(opts.messageFile, ctx);
}

function checkLocally(opts: ChatOptions, message: string, siteArgs: string[]): void {
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

/** `chat` with several sites; `positionals` are the site and message arguments in the order typed. */
export async function runChatBatch(opts: ChatOptions, positionals: string[], ctx: Context): Promise<number> {
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
