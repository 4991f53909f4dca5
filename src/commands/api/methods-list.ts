// `sitebuilder api` without a method: the methods the CLI knows, from the registry.
import type { Context } from '../../context.js';
import { printTable } from '../../io/print.js';

export async function printMethodList(ctx: Context): Promise<void> {
  const { METHOD_INDEX_NAMES, methodInfo } = await import('../../api/method-index.js');
  const rows = METHOD_INDEX_NAMES.map((name) => methodInfo(name)!);
  if (ctx.globals.json) {
    ctx.io.printJson(
      rows.map((m) => ({
        name: m.name,
        scope: m.scope,
        write: m.write,
        destructive: m.destructive,
        listing: m.listing,
        permission: m.permission,
        summary: m.summary,
      })),
    );
    return;
  }
  printTable(
    ctx.io,
    [
      { header: 'METHOD', value: (m) => m.name },
      { header: 'SCOPE', value: (m) => m.scope },
      {
        header: 'KIND',
        value: (m) =>
          [m.destructive ? 'destructive' : m.write ? 'write' : 'read', m.listing ? `pages: ${m.listing}` : '']
            .filter(Boolean)
            .join(', '),
      },
      { header: 'SUMMARY', value: (m) => m.summary },
    ],
    rows,
  );
  ctx.io.info(
    'Call one with `sitebuilder api <method> -f key=value`; `sitebuilder tools` lists the methods your token can use.',
  );
}
