// One row per field of the service model's catalogue (src/service/catalogue.ts): found, and
// where, in the answer of the call that holds it; not found; or not checked, with the reason
// (no call of doctor reached it, or the answer held no such record). Never guessed: a field is
// found only where the model's own reader finds it in an answer doctor read.
import type { Envelope } from '../../api/call.js';
import { methodInfo } from '../../api/method-index.js';
import type { ListingPattern } from '../../api/registry-terms.js';
import { CATALOGUE, type CatalogueEntry } from '../../service/catalogue.js';
import { EVENT_SOURCES, type FieldProbe, probeEntry, probeEvents } from '../../service/doctor-probe.js';
import { EVENT_DATA } from '../../service/events.js';
import { JOB, readJobAnswer } from '../../service/job.js';
import { PAGE, PAGE_FIELDS } from '../../service/page.js';
import type { Reading } from './calls.js';

export type FieldStatus = 'found' | 'not found' | 'not checked';

export interface FieldRow {
  resource: string;
  field: string;
  what: string;
  /** Every path it is looked for under is one the reference states. */
  stated: boolean;
  looked: readonly string[];
  status: FieldStatus;
  /** The call whose answer it was looked for in. */
  method: string | null;
  /** The first path it was found at, as the answer spells it. */
  path: string | null;
  /** Every path it was found at (records of one answer may differ). */
  paths: string[];
  /** Records (events, tasks) it was looked for in, and how many held it. */
  records: number;
  foundIn: number;
  /** Why it was not checked. */
  reason: string | null;
}

type PageName = keyof typeof PAGE_FIELDS;

/** The paging fields the CLI reads of each listing pattern (api/page-fields.ts decideNext). */
const PAGE_FIELDS_OF: Record<ListingPattern, PageName[]> = {
  offset: ['hasMore', 'nextOffset', 'count'],
  offsetHasMore: ['hasMore', 'nextOffset', 'count'],
  nextCursor: ['hasMore', 'nextCursor'],
  token: ['hasMore', 'nextToken'],
  backwards: ['hasMore', 'oldestCursor'],
  page: ['hasMore', 'nextPage', 'totalPages', 'count'],
};

const list = (words: string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;

function rowsOf(entry: CatalogueEntry, probes: Record<string, FieldProbe> | string, method: string | null): FieldRow[] {
  return Object.entries(entry.resource.fields).map(([name, f]) => {
    const probe = typeof probes === 'string' ? undefined : probes[name];
    const checked = probe !== undefined && probe.records > 0;
    return {
      resource: entry.resource.name,
      field: name,
      what: f.what,
      stated: f.paths.length > 0 && f.paths.every((p) => f.stated.includes(p)),
      looked: f.paths,
      status: !checked ? 'not checked' : probe.found === null ? 'not found' : 'found',
      method,
      path: checked ? probe.found : null,
      paths: checked ? probe.paths : [],
      records: probe?.records ?? 0,
      foundIn: probe?.foundIn ?? 0,
      reason: checked ? null : typeof probes === 'string' ? probes : 'no record',
    };
  });
}

/** Why no answer doctor read holds a resource from these calls, and the call that would have. */
function unreached(reading: Reading, methods: string[]): { reason: string; method: string } {
  for (const m of methods) {
    const call = reading.calls.find((c) => c.method === m);
    if (!call) continue;
    if (call.outcome === 'refused' || call.outcome === 'failed')
      return { method: m, reason: `${m} could not be read: ${call.error}` };
    if (call.outcome === 'skipped' || call.outcome === 'not made')
      return { method: m, reason: `${m} was not called: ${call.error}` };
  }
  const reads = methods.filter((m) => methodInfo(m)?.write !== true);
  if (reads.length === 0)
    return { method: methods[0], reason: 'only the answer of a write holds it, and doctor never writes' };
  return { method: reads[0], reason: 'doctor does not make the call that reads it' };
}

const subject = (reading: Reading, method: string) => {
  const t = reading.targets;
  return method === 'list_sites' ? ` of ${t.workspace}` : method === 'list_workspaces' ? '' : ` of ${t.site}`;
};

/** get_job's `error` is stated "on a failed run": absent from a run that did not fail, it is not checked. */
function jobRows(rows: FieldRow[], reading: Reading): FieldRow[] {
  const state = readJobAnswer(reading.answers.get('get_job')?.data).state;
  return rows.map((row) =>
    row.field === 'error' && row.status === 'not found' && state !== 'failed'
      ? {
          ...row,
          status: 'not checked',
          path: null,
          reason: `run ${reading.targets.run} did not fail (its state: ${state ?? 'not given'})`,
        }
      : row,
  );
}

function eventRows(entry: CatalogueEntry, reading: Reading): FieldRow[] {
  const job = reading.answers.get('get_job');
  if (!job) return rowsOf(entry, unreached(reading, ['get_job']).reason, 'get_job');
  const { kinds, fields } = probeEvents(job.data);
  const run = reading.targets.run;
  return rowsOf(entry, fields, 'get_job').map((row) => {
    if (row.status !== 'not checked') return row;
    const source = EVENT_SOURCES[row.field as keyof typeof EVENT_DATA.fields];
    const sent = source.kinds.some((k) => kinds[k]);
    const reason = !sent
      ? `run ${run} sent no ${list(source.kinds)} event`
      : source.within === 'tasks'
        ? `run ${run}'s task lists could not be read`
        : source.within === 'step input'
          ? `run ${run}'s steps carry no input sitebuilder can read`
          : source.within === 'ask_user'
            ? `run ${run} asked no question (no ask_user step)`
            : `run ${run}'s events carry no data`;
    return { ...row, reason };
  });
}

function pageRows(entry: CatalogueEntry, reading: Reading): FieldRow[] {
  const listings = [...reading.answers].flatMap(([method, answer]) => {
    const pattern = methodInfo(method)?.listing;
    return pattern ? [{ method, pattern, envelope: answer.result.envelope }] : [];
  });
  return Object.keys(PAGE.fields).map((name) => {
    const probes = listings
      .filter((l) => PAGE_FIELDS_OF[l.pattern].includes(name as PageName))
      .map((l) => ({ method: l.method, path: pagePath(l.envelope, name as PageName) }));
    const hits = probes.filter((p) => p.path !== null);
    const probe: FieldProbe = {
      records: probes.length,
      foundIn: hits.length,
      found: hits[0]?.path ?? null,
      paths: [...new Set(hits.map((h) => h.path as string))],
    };
    const reason = 'none of the listings doctor read pages with it';
    const [row] = rowsOf(
      { ...entry, resource: { ...PAGE, fields: { [name]: PAGE.fields[name as PageName] } } },
      probes.length ? { [name]: probe } : reason,
      (hits[0] ?? probes[0])?.method ?? null,
    );
    return row;
  });
}

/**
 * Where a paging field is, as the client reads it (api/page-fields.ts pageField, not imported so
 * that doctor shares no chunk with the listings): under one of its names exactly, in `data` when
 * it is an object (`data.hasMore`), else on the envelope (`count`); null when not there.
 */
function pagePath(envelope: Envelope, name: PageName): string | null {
  const data = envelope.data;
  const places: Array<[object, string]> = [[envelope, '']];
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) places.unshift([data, 'data.']);
  for (const [place, prefix] of places) {
    const key = PAGE_FIELDS[name].find((k) => k in place);
    if (key !== undefined) return `${prefix}${key}`;
  }
  return null;
}

/** Every field of the catalogue, in its order, as doctor reports it. */
export function fieldRows(reading: Reading): FieldRow[] {
  return CATALOGUE.flatMap((entry) => {
    if (entry.resource === EVENT_DATA) return eventRows(entry, reading);
    if (entry.resource === PAGE) return pageRows(entry, reading);
    const reached = entry.from.filter((f) => reading.answers.has(f.method));
    for (const from of reached) {
      const probes = probeEntry(entry, from.at, reading.answers.get(from.method)?.data);
      if (Object.values(probes).some((p) => p.records > 0)) {
        const rows = rowsOf(entry, probes, from.method);
        return entry.resource === JOB ? jobRows(rows, reading) : rows;
      }
    }
    if (reached.length) {
      const m = reached[0].method;
      return rowsOf(entry, `${m}${subject(reading, m)} answered no ${entry.resource.name}`, m);
    }
    const why = unreached(reading, [...new Set(entry.from.map((f) => f.method))]);
    return rowsOf(entry, why.reason, why.method);
  });
}
