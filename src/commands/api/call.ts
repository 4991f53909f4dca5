import type { IncomingHttpHeaders } from 'node:http';
import { defineCommand, type OptionsOf, SERVICE_EXITS } from '../../core/define.js';
import type { MethodInfo } from '../../api/method-index.js';
import type { ListingPattern } from '../../api/methods.js';
import type { Context } from '../../context.js';
import { ApiError, UsageError } from '../../errors.js';
import type { FieldInput } from './fields.js';

// The six listing patterns of the service (the body builder, the pager and the method list load
// only when the command runs: start-up stays light).
const LISTING_PATTERNS: readonly ListingPattern[] = [
  'offset',
  'offsetHasMore',
  'nextCursor',
  'token',
  'page',
  'backwards',
];

// -f and -F are two options but one sequence: `name[]=` items keep the order they were typed in.
let fieldOrder = 0;
const collect =
  (typed: boolean) =>
  (value: string, previous: unknown): FieldInput[] => [
    ...((previous as FieldInput[]) ?? []),
    { raw: value, typed, order: fieldOrder++ },
  ];

/** -H 'Name: value' → headers; an Idempotency-Key goes to the client, which checks it and reuses it on retries. */
function parseHeaders(lines: string[]): { headers: Record<string, string>; idempotencyKey?: string } {
  const headers: Record<string, string> = {};
  let idempotencyKey: string | undefined;
  for (const line of lines) {
    const m = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+):\s*(.*)$/.exec(line);
    if (!m)
      throw new UsageError(
        `-H takes 'Name: value', as in -H 'Idempotency-Key: deploy-42', not ${JSON.stringify(line)}.`,
      );
    const name = m[1].toLowerCase();
    if (name === 'authorization')
      throw new UsageError(
        'The token is sent for you; use `sitebuilder auth login` or SITEBUILDER_TOKEN instead of an Authorization header.',
      );
    if (name === 'idempotency-key') idempotencyKey = m[2];
    else headers[name] = m[2];
  }
  return { headers, idempotencyKey };
}

function headerLines(status: number, headers: IncomingHttpHeaders | Record<string, unknown> | undefined): string {
  const lines = [`HTTP ${status}`];
  for (const [k, v] of Object.entries(headers ?? {}))
    if (v !== undefined) lines.push(`${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`);
  return `${lines.join('\n')}\n\n`;
}

/**
 * A method the registry marks destructive (the reference's "Destructive") is called only once
 * confirmed: on a terminal, saying what it does from its summary; else with --yes (exit 5
 * otherwise, nothing sent). Its stated arguments are checked first, so a bad one never asks.
 */
async function confirmMethod(ctx: Context, info: MethodInfo, body: Record<string, unknown>): Promise<void> {
  const [{ checkArgsForSending }, { confirmDestructive }, { sanitizeInline }] = await Promise.all([
    import('../../api/validate.js'),
    import('../shared/confirm.js'),
    import('../../io/sanitize.js'),
  ]);
  const problem = checkArgsForSending(info.name, info.schema, body);
  if (problem) throw new UsageError(`Not sent: ${problem.message}`, { method: info.name, argument: problem.path });
  const site = typeof body.projectId === 'string' ? ` on site ${sanitizeInline(body.projectId)}` : '';
  await confirmDestructive(ctx, {
    action: `Calling ${info.name}${site} (destructive)`,
    consequences: [info.summary],
  });
}

function printAnswer(
  ctx: Context,
  opts: Pick<OptionsOf<typeof call>, 'include'>,
  status: number,
  headers: IncomingHttpHeaders | undefined,
  envelope: unknown,
): void {
  if (!opts.include) {
    ctx.io.printJson(envelope);
    return;
  }
  if (ctx.globals.json) {
    ctx.io.printJson({ status, headers: headers ?? {}, body: envelope });
    return;
  }
  ctx.io.out(headerLines(status, headers));
  ctx.io.printJson(envelope);
}

export const call = defineCommand({
  name: 'api',
  summary: 'Call any method of the service and print its answer as JSON',
  description:
    'Post to any method of the service and print its whole answer (the envelope) as JSON. What the reference states of a known method’s arguments is checked before anything is sent; an unknown method is sent anyway (the service answers 404). Without a method, lists the methods the CLI knows. A destructive method asks first on a terminal and needs --yes otherwise. A refusal prints its envelope on stdout and the reason on stderr. --paginate follows every page, or ends with an error.',
  exitCodes: `0 answered, 5 a destructive method needs --yes (nothing sent), 7 rate limit; ${SERVICE_EXITS}`,
  learnMore: 'docs/scripting.md#calling-any-method-api-tools-openapi',
  args: [
    {
      name: 'method',
      description: 'method name, e.g. list_sites (none: list the known methods)',
      suggest: async () => {
        const { METHOD_INDEX_NAMES, methodInfo } = await import('../../api/method-index.js');
        return METHOD_INDEX_NAMES.map((name) => ({ value: name, description: methodInfo(name)!.summary }));
      },
    },
  ],
  options: [
    {
      flags: '-f, --raw-field <key=value>',
      description: 'add a text argument (repeatable; name[sub]= and name[]= nest)',
      parse: collect(false),
    },
    {
      flags: '-F, --field <key=value>',
      description: 'add a typed argument: numbers, true, false, null, JSON, @file or @- for its text',
      parse: collect(true),
    },
    {
      flags: '--input <file>',
      description: 'the whole body, a JSON object, from a file or - (standard input); fields are set on it',
    },
    {
      flags: '-H, --header <header>',
      description: "add a header, e.g. 'Idempotency-Key: deploy-42' (repeatable)",
      parse: (value: string, previous: unknown): string[] => [...((previous as string[] | undefined) ?? []), value],
    },
    { flags: '-i, --include', description: 'also print the HTTP status and the response headers' },
    { flags: '--paginate', description: 'follow every page and print all items as one JSON array' },
    { flags: '--jsonl', description: 'with --paginate: one item a line (NDJSON), streamed' },
    {
      flags: '--pattern <pattern>',
      description: 'with --paginate: the listing pattern of a method the CLI does not know',
      choices: LISTING_PATTERNS,
    },
  ],
  examples: [
    'sitebuilder api list_workspaces',
    'sitebuilder api list_sites -f workspaceId=ws_1 -F offset=20',
    'sitebuilder api list_sites -f workspaceId=ws_1 --paginate --jsonl | jq -r ._id',
    'sitebuilder api send_message -f projectId=site_1 -F prompt=@brief.txt -H "Idempotency-Key: brief-1"',
    'sitebuilder storage-restore plan site_1 --backup sb_4 --mode full --json > plan.json',
    'jq .request plan.json | sitebuilder api restore_storage_backup --input - -f confirm="$(jq -r .confirm plan.json)" --yes --include',
    'sitebuilder api',
  ],
  jsonFields:
    'the envelope as the service sent it (success, message, data, code, version, count…); with --include {status, headers, body}; with --paginate a JSON array of the items (closed even when a later page fails; the exit code says so)',
  async run(opts, ctx) {
    if (!opts.method) return (await import('./methods-list.js')).printMethodList(ctx);
    if (!/^[A-Za-z0-9_.-]+$/.test(opts.method)) {
      throw new UsageError(
        `${JSON.stringify(opts.method)} is not a method name; names are lowercase with underscores, like list_sites.`,
      );
    }
    if (opts.jsonl && !opts.paginate) throw new UsageError('--jsonl goes with --paginate.');
    if (opts.pattern && !opts.paginate) throw new UsageError('--pattern goes with --paginate.');
    if (opts.include && opts.paginate)
      throw new UsageError('--include shows one answer; it does not go with --paginate.');
    const { headers, idempotencyKey } = parseHeaders(opts.header ?? []);
    const { applyFields, readInputBody, textReader } = await import('./fields.js');
    const readText = textReader(ctx.io.stdin);
    const body = opts.input ? await readInputBody(opts.input, readText) : {};
    const fields = [...(opts.rawField ?? []), ...(opts.field ?? [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    await applyFields(body, fields, readText);
    const { methodInfo } = await import('../../api/method-index.js');
    const info = methodInfo(opts.method);
    const client = ctx.api();
    if (info?.destructive) await confirmMethod(ctx, info, body);
    if (opts.paginate) {
      const pattern = opts.pattern ?? info?.listing ?? undefined;
      const { printAllPages } = await import('./pages.js');
      const result = await printAllPages({
        client,
        io: ctx.io,
        method: opts.method,
        args: body,
        pattern,
        jsonl: Boolean(opts.jsonl),
        headers,
        signal: ctx.signal,
      });
      if (!result.pattern && result.pages === 1)
        ctx.io.info(`${opts.method} answered one page without paging fields; pass --pattern if it pages.`);
      return;
    }
    try {
      const res = await client.call(opts.method, body, { idempotencyKey, headers, signal: ctx.signal });
      printAnswer(ctx, opts, res.status, res.headers, res.envelope);
    } catch (err) {
      if (err instanceof ApiError && err.envelope)
        printAnswer(ctx, opts, err.status, err.headers as IncomingHttpHeaders, err.envelope);
      throw err;
    }
  },
});
