// doctor's report piped: tab-separated rows, each naming its kind first (`service`, `call`,
// `field`, `method`, `argument`, `undescribed`, `summary`), every value whole and cleaned
// (docs/scripting.md "Other piped formats").
import type { IO } from '../../io/io.js';
import { cellText } from '../../io/print.js';
import type { DoctorReport } from './report.js';

const argsText = (args: Record<string, unknown> | null) =>
  args === null
    ? ''
    : Object.entries(args)
        .map(([k, v]) => `${k}=${cellText(v)}`)
        .join(' ');

export function printRows(io: IO, r: DoctorReport): void {
  const row = (...cells: unknown[]) => io.outLine(cells.map((c) => cellText(c).replace(/\t/g, ' ')).join('\t'));
  row('service', r.profile, r.baseUrl, r.serviceVersion);
  for (const c of r.calls)
    row(
      'call',
      c.method,
      c.counted ? 'counted' : 'not counted',
      c.outcome,
      c.status,
      c.records,
      argsText(c.args),
      c.requestId,
      c.error,
    );
  for (const f of r.fields)
    row(
      'field',
      f.resource,
      f.field,
      f.status,
      f.method,
      f.paths.join(' '),
      f.status === 'not checked' ? '' : `${f.foundIn}/${f.records}`,
      f.reason,
    );
  for (const m of r.methods) row('method', m.problem, m.method, m.sources.join(' '), m.scope, m.tokenHasScope);
  for (const a of r.arguments)
    row('argument', a.method, a.argument, a.problem, a.registry, a.service, a.sources.join(' '), a.stated);
  for (const u of r.notDescribed) row('undescribed', u.what, u.method, u.sources.join(' '));
  row('summary', r.summary.found, r.summary.notFound, r.summary.notChecked, r.counted.made, r.counted.max, r.exitCode);
}
