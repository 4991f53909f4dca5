// `sitebuilder publish logs <site>`: the log lines of the latest publish (offset-and-count paging).
import type { MethodArgs } from '../../api/method-args.js';
import { paginate } from '../../api/paginate.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { cellText } from '../../io/print.js';
import { style } from '../../io/style.js';
import { displayWidth } from '../../io/width.js';
import { wrapLine } from '../../io/width.js';
import { defineCommand, type OptionsOf, parsePositiveInt, SERVICE_EXITS } from '../../core/define.js';
import { type LogLine, logLine } from '../../service/publish.js';
import { parseTime } from '../../service/time.js';
import { SITE_ARG } from '../shared/site-arg.js';

export { type LogLine, logLine };

const DEFAULT_LIMIT = 100;

export async function runPublishLogs(o: OptionsOf<typeof publishLogsCommand>, ctx: Context): Promise<number> {
  const siteId = ctx.site(o.site);
  if (o.all && o.limit !== undefined) throw new UsageError('Use either --all or --limit, not both.');
  const max = o.all ? undefined : (o.limit ?? DEFAULT_LIMIT);
  const args: MethodArgs<'get_publish_logs'> = { projectId: siteId };
  if (o.deployment) args.deploymentId = o.deployment;
  let total: number | undefined;
  const lines: LogLine[] = [];
  let printed = 0;
  const c = style(ctx.io);
  const iter = paginate(ctx.api(), 'get_publish_logs', args, {
    max,
    signal: ctx.signal,
    onPage: (env) => {
      if (typeof env.count === 'number') total = env.count;
    },
  });
  for await (const raw of iter) {
    const line = logLine(raw);
    if (ctx.globals.json) {
      lines.push(line);
      continue;
    }
    const message = cellText(line.message);
    if (ctx.io.stdoutIsTTY) {
      const time =
        line.at && parseTime(line.at) !== undefined
          ? new Date(parseTime(line.at)!).toISOString().slice(11, 19)
          : (line.at ?? '');
      const head = [cellText(time), cellText(line.level ?? '')].filter(Boolean);
      const painted = [c.dim(head[0] ?? ''), line.level === 'error' ? c.red(line.level) : (head[1] ?? '')];
      ctx.io.outLine(hanging(painted.filter(Boolean).join('  '), head.join('  '), message, ctx.io.columns));
    } else {
      ctx.io.outLine([cellText(line.at), cellText(line.level), message].join('\t'));
    }
    printed++;
  }
  if (ctx.globals.json) {
    ctx.io.printJson({ siteId, total: total ?? lines.length, lines });
    return 0;
  }
  if (printed === 0) ctx.io.info(`No publish logs for ${siteId} yet.`);
  else if (total !== undefined && printed < total)
    ctx.io.info(`Showing ${printed} of ${total} lines; --all shows every line.`);
  return 0;
}

/** `time  level  message`, the message wrapped at word boundaries under its own start when there is room. */
function hanging(painted: string, plain: string, message: string, width: number): string {
  const at = plain ? plain.length + 2 : 0;
  const room = width - at;
  const lines = room >= 20 ? wrapLine(message, room, 0) : [];
  // A word wider than the room beside the time (an address) takes the whole width instead.
  if (lines.length === 0 || lines.some((l) => displayWidth(l) > room))
    return wrapLine(plain ? `${painted}  ${message}` : message, width).join('\n');
  return [plain ? `${painted}  ${lines[0]}` : lines[0], ...lines.slice(1).map((l) => ' '.repeat(at) + l)].join('\n');
}

export const publishLogsCommand = defineCommand({
  name: 'logs',
  summary: 'Show the log of the latest publish',
  description: `Prints the log lines of the latest publish (or of --deployment), oldest first: the first ${DEFAULT_LIMIT} lines, or every line with --all.`,
  exitCodes: `0 printed; ${SERVICE_EXITS}`,
  learnMore: 'docs/guide.md#publishing-and-uploads',
  args: [SITE_ARG],
  options: [
    { flags: '--all', description: 'every line, fetching page after page' },
    {
      flags: '-l, --limit <n>',
      description: `at most this many lines (default ${DEFAULT_LIMIT})`,
      parse: parsePositiveInt('--limit'),
    },
    { flags: '--deployment <id>', description: 'the log of this deployment instead of the latest publish' },
  ],
  examples: [
    'sitebuilder publish logs s_123',
    'sitebuilder publish logs s_123 --all --json | jq -r ".lines[].message"',
  ],
  jsonFields: '{ siteId, total, lines: [{ at, level, message }] }',
  run: (o, ctx): Promise<number> => runPublishLogs(o, ctx),
});
