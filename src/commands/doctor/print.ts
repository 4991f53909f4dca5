// doctor's report on a terminal: tables fitted to its width (io/layout.ts) and sentences wrapped
// to it. Piped, it is rows (rows.ts); --json prints the report itself (report.ts).
import type { IO } from '../../io/io.js';
import { printFields } from '../../io/print.js';
import type { ArgumentFinding } from './compare.js';
import type { FieldRow } from './fields.js';
import type { CallRecord } from './plan.js';
import type { DoctorReport } from './report.js';
import { printRows } from './rows.js';
import { printDoctorTable } from './table.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
function answerText(c: CallRecord): string {
  if (c.outcome === 'read')
    return [c.status, c.records === null ? '' : plural(c.records, 'record')].filter(Boolean).join(', ');
  if (c.status !== null) return `${c.outcome}, ${c.status}`;
  return c.outcome;
}

function foundText(f: FieldRow): string {
  // A field the reference states and the answer lacks: the service contradicts its reference.
  if (f.status === 'not found' && f.stated) return 'not found (stated)';
  if (f.status !== 'found') return f.status;
  const where = f.paths.join(', ');
  return f.foundIn < f.records ? `${where} (${f.foundIn} of ${f.records})` : where;
}

/** What a finding about an argument says, in one sentence (none starts with "sitebuilder", which the wrapper keeps whole as a command). */
export function argumentSentence(a: ArgumentFinding): string {
  const arg = `\`${a.argument}\``;
  const stated = a.stated ? ' (the reference shows it)' : '';
  switch (a.problem) {
    case 'unknown':
      return `the service takes ${arg} (${a.service}), which sitebuilder does not know`;
    case 'not described':
      return `${arg} (${a.registry}) is known to sitebuilder${stated}, not named in the service's description`;
    case 'required':
      return `the service requires ${arg}, which sitebuilder has optional${stated}`;
    case 'optional':
      return `${arg} is required to sitebuilder${stated}, optional to the service`;
    case 'type':
      return `${arg} is ${a.service} to the service, ${a.registry} to sitebuilder${stated}`;
    case 'values':
      return `${arg} takes ${a.service} to the service, ${a.registry} to sitebuilder${stated}`;
  }
}

const section = (io: IO, text: string) => io.outLine(`\n${io.prose(text, 'stdout')}`);
const bullet = (io: IO, text: string) => io.outLine(io.prose(`- ${text}`, 'stdout'));

function printMethods(io: IO, r: DoctorReport): void {
  const unknown = r.methods.filter((m) => m.problem === 'unknown');
  const missing = r.methods.filter((m) => m.problem === 'not listed' && m.tokenHasScope !== false);
  const outOfScope = r.methods.filter((m) => m.problem === 'not listed' && m.tokenHasScope === false);
  const names = (ms: typeof r.methods) => ms.map((m) => `${m.method} (${m.sources.join(', ')})`).join(', ');
  section(io, 'Methods:');
  const { tools, openapi } = r.descriptions;
  if (!tools.read && !openapi.read) {
    bullet(io, 'neither GET /v1/tools nor GET /v1/openapi.json could be read: nothing was compared');
    return;
  }
  if (!tools.read || !openapi.read)
    bullet(
      io,
      `${tools.read ? 'GET /v1/openapi.json' : 'GET /v1/tools'} could not be read: compared with the other only`,
    );
  bullet(
    io,
    unknown.length
      ? `the service lists ${plural(unknown.length, 'method')} sitebuilder does not know: ${names(unknown)}`
      : 'the service lists no method sitebuilder does not know',
  );
  bullet(
    io,
    missing.length
      ? `sitebuilder knows ${plural(missing.length, 'method')} the service does not list: ${names(missing)}`
      : 'the service lists every method sitebuilder knows',
  );
  if (outOfScope.length)
    bullet(
      io,
      `${plural(outOfScope.length, 'more method')} not in GET /v1/tools, whose scopes the token does not hold`,
    );
  for (const [source, d] of Object.entries(r.descriptions))
    for (const u of d.unread)
      bullet(
        io,
        `${source === 'tools' ? 'GET /v1/tools' : 'GET /v1/openapi.json'} holds ${u}, so what it leaves out is not said`,
      );
}

function printArguments(io: IO, r: DoctorReport): void {
  if (!r.descriptions.tools.read && !r.descriptions.openapi.read) return;
  section(
    io,
    r.arguments.length
      ? 'Arguments the service’s description contradicts:'
      : 'Arguments: the service’s description contradicts none of sitebuilder’s.',
  );
  for (const a of r.arguments) bullet(io, `${a.method}: ${argumentSentence(a)} (${a.sources.join(', ')})`);
  const answers = r.notDescribed.filter((u) => u.what === 'answer');
  const args = r.notDescribed.filter((u) => u.what === 'arguments');
  if (!answers.length && !args.length) return;
  section(io, 'Not in the description at all:');
  if (answers.length)
    bullet(
      io,
      `the shape of the answers of ${plural(answers.length, 'method')} whose fields sitebuilder reads (--json lists them): only the calls above check those fields`,
    );
  if (args.length) bullet(io, `the arguments of ${args.map((u) => u.method).join(', ')}`);
}

function printPretty(io: IO, r: DoctorReport): void {
  const t = r.targets;
  const target = (id: string | null, from: string | null, none: string | null) =>
    id === null ? (none ?? 'none') : from ? `${id} (${from})` : id;
  printFields(io, [
    ['Profile', r.profile],
    ['Service', `${r.baseUrl}${r.serviceVersion ? ` (version ${r.serviceVersion})` : ''}`],
    ['Workspace', target(t.workspace, t.workspaceFrom, t.noWorkspace)],
    ['Site', target(t.site, t.siteFrom, t.noSite)],
    ['Run', target(t.run, t.runFrom, t.noRun)],
    ['Calls', `3 that spend no budget, ${r.counted.made} counted (at most ${r.counted.max})`],
  ]);
  io.outLine();
  printDoctorTable(
    io,
    [
      { header: 'CALL', value: (c: CallRecord) => c.method },
      { header: 'ANSWER', value: answerText, wraps: true },
      { header: 'NOTE', value: (c) => c.error ?? '', wraps: true },
    ],
    r.calls,
  );
  const s = r.summary;
  section(
    io,
    `Fields sitebuilder reads: ${s.found} found, ${s.notFound} not found, ${s.notChecked} not checked (of ${s.fields}).`,
  );
  const checked = r.fields.filter((f) => f.status !== 'not checked');
  printDoctorTable(
    io,
    [
      {
        header: 'RESOURCE',
        value: (f: FieldRow) => (checked[checked.indexOf(f) - 1]?.resource === f.resource ? '' : f.resource),
        wraps: true,
      },
      { header: 'FIELD', value: (f) => f.what, wraps: true },
      { header: 'WHERE', value: foundText, wraps: true },
    ],
    checked,
  );
  section(io, 'Not checked:');
  // One line a reason: the resources it holds back, each with its call and how many fields.
  const groups = new Map<string, Map<string, number>>();
  for (const f of r.fields.filter((x) => x.status === 'not checked')) {
    const byResource = groups.get(f.reason ?? '') ?? new Map<string, number>();
    const from = f.method && !f.resource.startsWith(f.method) ? ` from ${f.method}` : '';
    byResource.set(`${f.resource}\u0000${from}`, (byResource.get(`${f.resource}\u0000${from}`) ?? 0) + 1);
    groups.set(f.reason ?? '', byResource);
  }
  for (const [reason, byResource] of groups) {
    const what = [...byResource].map(([key, n]) => {
      const [resource, from] = key.split('\u0000');
      return `${resource} (${plural(n, 'field')}${from})`;
    });
    bullet(io, `${what.join(', ')}: ${reason}`);
  }
  printMethods(io, r);
  printArguments(io, r);
}

export function printReport(io: IO, report: DoctorReport): void {
  if (io.json) io.printJson(report);
  else if (!io.stdoutIsTTY) printRows(io, report);
  else printPretty(io, report);
}
