import type { Context } from '../../context.js';
import { defineCommand, type OptionsOf, SERVICE_EXITS } from '../../core/define.js';
import { formatCount, LIMITS } from '../../api/limits.js';
import { ApiError, CliError, UsageError } from '../../errors.js';
import { readCreateAnswer, readCreateRefusal } from '../../service/sites.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { sb } from '../../io/shell.js';
import type { MethodArgs } from '../../api/method-args.js';

async function readPrompt(
  opts: Pick<OptionsOf<typeof create>, 'prompt' | 'promptFile'>,
  ctx: Context,
): Promise<string> {
  if (opts.prompt !== undefined && opts.promptFile !== undefined)
    throw new UsageError('Use either --prompt or --prompt-file, not both.');
  if (opts.promptFile !== undefined) {
    // Builtins load here, not at start-up (each one an ES module imports costs ~1 ms).
    if (opts.promptFile === '-') return (await import('node:stream/consumers')).text(ctx.io.stdin);
    const { PROMPT_FILE_MAX_BYTES, readTextFile } = await import('../../io/read-text-file.js');
    return readTextFile(opts.promptFile, { flag: '--prompt-file', maxBytes: PROMPT_FILE_MAX_BYTES });
  }
  if (opts.prompt !== undefined) return opts.prompt;
  ctx.prompter.require('The brief of the new site', 'pass --prompt "…" or --prompt-file FILE');
  return ctx.prompter.input('Describe the site to build');
}

/** The 403 and 402 refusals of create_site, each as a sentence that says what to do next. */
export function createSiteRefusal(err: ApiError): ApiError {
  const { reason, sitesCount: count, siteLimit: limit } = readCreateRefusal(err.data);
  let sentence: string | undefined;
  if (err.status === 403 && reason === 'site-limit-reached') {
    const has = count === undefined ? 'as many sites as' : `${count} sites of the ${limit ?? 'ones'}`;
    sentence = `The workspace already has ${has} its plan allows; delete a site or upgrade the plan, then try again.`;
  } else if (err.status === 403 && reason === 'credits-limit-reached') {
    sentence =
      'The workspace has reached the AI credit limit of its plan; upgrade the plan or wait for the credits to renew, then try again.';
  } else if (err.status === 402) {
    sentence =
      'The workspace has no AI credits left; nothing was created and nothing was charged. Add credits, then try again.';
  }
  return sentence ? err.withSentence(sentence) : err;
}

export const create = defineCommand({
  name: 'create',
  summary: 'Create a site from a brief and start its first build',
  description: `Create a site in a workspace from a brief (at most ${formatCount(LIMITS.promptMax)} characters). With --import-url, the agent rebuilds an existing page and the brief says what should change. Spends AI credits of the workspace.`,
  exitCodes: `0 built, 6 failed, 8 --timeout, 10 question, 11 plan, 130 Esc or Ctrl-C; ${SERVICE_EXITS}`,
  options: [
    {
      flags: '-w, --workspace <id>',
      description: 'the owning workspace (default: the token’s only one; on a terminal, picked from a list)',
    },
    { flags: '--prompt <text>', description: 'the brief' },
    { flags: '--prompt-file <file>', description: 'read the brief from a file (- for standard input)' },
    { flags: '--import-url <url>', description: 'address of a page of an existing website to rebuild' },
    {
      flags: '--idempotency-key <key>',
      description: 'key for the create call, so a retried script creates nothing twice',
    },
    { flags: '--no-follow', description: 'print the site and job id and return, without following the first build' },
  ],
  examples: [
    'sitebuilder site create --prompt "A bakery in Lyon with a menu and opening hours"',
    'sitebuilder site create --workspace ws_1 --prompt-file brief.md --json',
    'sitebuilder site create --import-url https://example.com --prompt "Same content, brighter colours"',
  ],
  jsonFields:
    'with --no-follow: { site, jobId, workspaceId }; followed: NDJSON, { "type": "site", site, jobId, workspaceId } then the run as `chat --json` prints it, ending with one {"type":"end",…} line',
  async run(opts, ctx) {
    const prompt = await readPrompt(opts, ctx);
    // Every local check before the first call (list_workspaces, when no --workspace is given).
    if (!prompt.trim()) throw new UsageError('The brief is empty; say what the site should be. Nothing was sent.');
    if (prompt.length > LIMITS.promptMax)
      throw new UsageError(
        `The brief is ${formatCount(prompt.length)} characters, longer than ${formatCount(LIMITS.promptMax)} characters (the most the service takes). Nothing was sent.`,
      );
    if (opts.importUrl !== undefined) {
      try {
        const u = new URL(opts.importUrl);
        if (!/^https?:$/.test(u.protocol)) throw new Error('protocol');
      } catch {
        throw new UsageError(
          `--import-url takes an http(s) address, not ${JSON.stringify(opts.importUrl)}; nothing was sent.`,
        );
      }
    }
    const client = ctx.api();
    const workspaceId = opts.workspace ?? (await (await import('../../pickers.js')).pickWorkspace(ctx));
    const args: MethodArgs<'create_site'> = { workspaceId, prompt };
    if (opts.importUrl) args.importSource = { SourceUrl: opts.importUrl };
    let data: unknown;
    try {
      data = (await client.call('create_site', args, { idempotencyKey: opts.idempotencyKey, signal: ctx.signal }))
        .envelope.data;
    } catch (err) {
      throw err instanceof ApiError ? createSiteRefusal(err) : err;
    }
    const read = readCreateAnswer(data);
    const { site, jobId } = read;
    const siteId = read.siteId ?? '';
    const follow = opts.follow !== false && Boolean(jobId) && Boolean(siteId);
    if (ctx.globals.json) {
      // Followed, the output is a stream: this line, then the run's NDJSON (see `chat --help`).
      if (follow) ctx.io.printJsonLine({ type: 'site', site, jobId, workspaceId });
      else ctx.io.printJson({ site, jobId: jobId ?? null, workspaceId });
    } else {
      // The site id is stdout's contract: not named, nothing stands in for it and the exit code
      // says so, so that `SITE=$(…) && next` stops (docs/real-service.md "Unread is said").
      if (!siteId)
        throw new CliError(
          `A site was created in workspace ${workspaceId}, but the service's answer did not name its id, so none is printed; see it with: ${sb('site list --workspace', workspaceId)}`,
          { workspaceId, jobId: jobId ?? null },
        );
      // Followed and piped, every line starts with a tag (docs/scripting.md): this one too.
      ctx.io.outLine(
        follow && !ctx.io.stdoutIsTTY
          ? `site\t${sanitizeInline(siteId)}\t${sanitizeInline(workspaceId)}`
          : sanitizeInline(siteId),
      );
      ctx.io.info(
        `Created site ${sanitizeInline(siteId)} in workspace ${workspaceId}; first build ${jobId ? `is job ${sanitizeInline(jobId)}` : 'started'}.`,
      );
      if (jobId && !follow) ctx.io.info(`Follow it with: ${sb('job watch', siteId, jobId)}`);
    }
    if (!follow) return;
    // The first build is followed like `chat` follows a run, with the same exit codes.
    const { followToEnd, printAnswerLater, runTurn } = await import('../shared/conversation/turn.js');
    const { result, next, replyTo } = await followToEnd(ctx, siteId, jobId!);
    if (result.pending) printAnswerLater(ctx, result.pending);
    if (!next) return result.exitCode;
    return (await runTurn(ctx, { projectId: siteId, prompt: next.prompt, mode: next.mode, replyTo, follow: true }))
      .exitCode;
  },
});
