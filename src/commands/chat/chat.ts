// `sitebuilder chat <site> [message]`: one message sent and followed (scripts), or, without a
// message in a terminal, a conversation. Exit codes (README.md): 0 succeeded, 6 failed,
// 10 a question waits, 11 a plan waits, 8 --timeout reached or queued, 130 interrupted.
// The definition only: the implementation (./run.ts) loads when the command runs.
import { defineCommand } from '../../core/define.js';
import { isBatch, refuseBatchFlags } from '../shared/fleet/options.js';
import { CHAT_ARGS, CHAT_OPTIONS } from './options.js';

export const chat = defineCommand({
  name: 'chat',
  summary: 'Talk to the site agent: send a message and watch the run live',
  description:
    "Send a message to the site's agent and follow its run live: its text, its task list, the files it changes, the credits it cost. Without a message, on a terminal, a conversation (/help lists what it takes). During a run, Ctrl-C stops following (the run goes on) and Esc cancels it, asking first.\nA question or a plan is asked on a terminal; a script gets exit 10 or 11 and the commands that answer it, each naming the run with --job. A reply is sent only when what it answers waits on the site's latest run, and a new message never answers a waiting question unseen; a lone word that names no site sends nothing.\nSeveral sites (ids, - for ids on standard input, or --workspace ID --all-sites) get the same message at once.",
  exitCodes:
    '0 done, 6 failed, 10 question, 11 plan, 8 queued or --timeout, 5 needs --job/--yes, 130 Esc or Ctrl-C; 1 refused, 2 usage, 4 auth, 7 queue full',
  learnMore: 'docs/guide.md#chat-with-the-agent, docs/scripting.md#many-sites-at-once',
  usage: '[options] [site] [message]  |  <site...> <message>  |  --workspace ID --all-sites <message>',
  args: CHAT_ARGS,
  options: CHAT_OPTIONS,
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
