// `sitebuilder chat <site> [message]`: one message sent and followed (scripts), or, without a
// message in a terminal, a conversation. Exit codes (README.md): 0 succeeded, 6 failed,
// 10 a question waits, 11 a plan waits, 8 --timeout reached or queued, 130 interrupted.
// The definition only: the implementation (./run.ts) loads when the command runs.
import { defineCommand, parseDuration, parsePositiveInt } from '../../core/define.js';
import { UsageError } from '../../errors.js';
import { FLEET_OPTIONS, isBatch, refuseBatchFlags } from '../fleet/options.js';
import { RECONNECT_FOR_OPTION } from '../job/reconnect-option.js';
import type { ChatBatchOptions } from './batch.js';

/** --choose N: a number; the printed `N` is a placeholder, refused with what to put in its place. */
function parseChoice(value: string): number {
  if (value.trim() === 'N')
    throw new UsageError(
      '--choose N holds a placeholder: put the number of one of the suggested answers in place of N (they are listed with the question; `sitebuilder job watch SITE JOB` shows them again). Nothing was sent.',
    );
  return parsePositiveInt('--choose')(value);
}

export const chat = defineCommand<ChatBatchOptions>({
  name: 'chat',
  summary: 'Talk to the site agent: send a message and watch the run live',
  description: `Send a message to the site's agent and follow the run: its text as it arrives, its task list, the files it changes, and the credits it cost. Without a message, in a terminal, a conversation: /plan toggles plan mode, /queue shows the queue, /resume runs a queue stopped after a failed or cancelled run, /cancel stops the run, /reply answers a question or plan put off with Esc, and /exit or Ctrl-D leaves. What you type during a run becomes your next message's text (never an answer to a question or plan). During a run, Esc cancels it (asks first) and Ctrl-C stops following: the run goes on, and the commands that re-attach and cancel are printed. When the connection to the service is lost, it says so and keeps trying for --reconnect-for (default 5m); then it detaches with exit 8 and the command that re-attaches.

A lone argument is the site, or the message for the default site: one with a space is a message; one that could be an id is the site, and when the service has no such site nothing is sent (exit 2, naming the closest ids). Without a default site, a message needs the site named first (exit 2).

When the agent asks a question or writes a plan, a terminal offers a choice; a script gets exit code 10 (question) or 11 (plan) and the exact command that answers, naming the run with --job: --answer TEXT or --choose N, --approve or --revise TEXT. These flags check that a question (or a plan) waits on the site's latest run, and send nothing otherwise (exit 2). A new message while one waits would be taken as its reply: a terminal asks first; otherwise nothing is sent (exit 10 or 11) unless --yes. The latest run is the one --job names, else the newest the history names with a time, else the newest this CLI started or followed; when none of these tells it, a terminal asks, a reply flag without one exits 2 (name the run with --job), and a new message exits 5 (--job or --yes). A message sent while the agent is busy waits in the site's queue (exit 8 when following, 0 with --no-follow) and runs on its own.

Several sites (chat SITE… MESSAGE: the last argument is the message; - reads the site ids from standard input; or --workspace ID --all-sites MESSAGE) get the same message at once. Sites named as arguments are looked up first: an id the service does not know (an unquoted message's words, say) exits 2 with nothing sent. They go --concurrency at a time, within the token's budget of calls; more than five sites are confirmed first (each run costs credits: a terminal asks, a script passes --yes, otherwise exit 5). What waits is checked on each site as for one: a site where a question or plan waits, or where that cannot be told, gets nothing without --yes and is reported with the commands that answer. A question or plan on one site blocks no other: it is reported with its reply commands (with --job). One row per site as it ends (piped: site, outcome, job id, exit code, tab-separated; --json: one NDJSON record per site and a summary), and the most severe exit code: 4, 2, 1, 6, 7, 5, 10, 11, 8, in that order (docs/scripting.md "Many sites at once"). Ctrl-C detaches from every run (they go on) and prints the command that follows each.`,
  usage: '[options] [site] [message]  |  <site...> <message>  |  --workspace ID --all-sites <message>',
  args: [
    {
      name: 'site',
      description: 'the site (default: `site use` or SITEBUILDER_SITE); - reads site ids from standard input',
    },
    { name: 'message', description: 'what the agent should do (quote it); omit for a conversation' },
    { name: 'more', description: 'with several sites: more sites, then the message last', variadic: true },
  ],
  options: [
    { flags: '--plan', description: 'plan mode: the agent writes a plan and changes no file until you approve it' },
    { flags: '-F, --message-file <file>', description: 'read the message from a file (- for standard input)' },
    { flags: '--answer <text>', description: 'answer the question the agent asked' },
    {
      flags: '--choose <n>',
      description: 'answer with the agent’s suggested answer number N',
      parse: parseChoice,
    },
    {
      flags: '--job <jobId>',
      description: 'the site’s latest run, as printed with its question or plan: nothing is sent unless it is',
    },
    { flags: '--approve', description: 'approve the plan the agent wrote, and build it' },
    { flags: '--revise <text>', description: 'ask for a revised plan' },
    { flags: '--no-follow', description: 'send and exit: print the job id, or the queue position' },
    {
      flags: '--timeout <duration>',
      description: 'stop following after this long (exit 8; the run goes on), e.g. 90s, 5m',
      parse: parseDuration('--timeout'),
    },
    RECONNECT_FOR_OPTION,
    {
      flags: '--idempotency-key <key>',
      description:
        'key for send_message, so a retried script never sends twice; with several sites, each sends KEY-SITE',
    },
    ...FLEET_OPTIONS,
  ],
  examples: [
    'sitebuilder chat site_bakery',
    'sitebuilder chat site_bakery "Add an about page with our story"',
    'sitebuilder chat site_bakery --plan "Move the menu to its own page"',
    'sitebuilder chat site_bakery --approve --job job_000011',
    'sitebuilder chat site_bakery --choose 2 --job job_000012',
    'sitebuilder chat site_bakery "Use a darker theme" --json | jq -c \'select(.type == "end")\'',
    'sitebuilder chat site_bakery site_docs "Update the footer year to 2027"',
    'sitebuilder chat --workspace ws_1 --all-sites "Update the footer year to 2027" --yes > footer.tsv',
    'cut -f1 clients.tsv | sitebuilder chat - "Update the footer year to 2027" --yes --json',
  ],
  jsonFields:
    'NDJSON: {"type":"start",projectId,jobId}; each event as the service sent it ({"event","data"}); {"type":"state",state} on changes; {"type":"reset"}; {"type":"cancel",jobId,ok,message} after a cancel asked with Esc; {"type":"queued",queueItemId,queuePosition,queueResumable} when queued; and exactly one last line {"type":"end",state,outcome,exitCode,creditsCharged,error,pending,reattach,reason}, where reason says why it was detached from (interrupted, connection_lost, refused; else null), error is {code,message,raw} on a failed run (raw: the service’s object) and pending holds the question with its options and answer commands, or the plan. With --no-follow: one document {projectId,queued,jobId} or {projectId,queued,queueItemId,queuePosition,queueResumable}.',
  async run(opts, ctx) {
    const positionals = [opts.site, opts.message, ...(opts.more ?? [])].filter((a): a is string => a !== undefined);
    if (
      isBatch(positionals.slice(0, opts.messageFile === undefined ? -1 : undefined), opts) ||
      (opts.more?.length ?? 0) > 0
    )
      return (await import('./batch.js')).runChatBatch(opts, positionals, ctx);
    refuseBatchFlags(opts);
    const { runChat } = await import('./run.js');
    return runChat(opts, ctx);
  },
});
