// The invariants of a `sitebuilder doctor --json` report, whatever shapes the service answered
// in: the same keys everywhere; every field of the catalogue once, in its order; a field found
// only at a path its call's answer has (checked against the answer's shape, which doctor takes
// apart from where it found the field); not found only where records were looked at; not
// checked always with a reason; at most five counted calls, none of them a write.
import { expect } from 'vitest';
import { methodInfo } from '../../src/api/method-index.js';
import type { DoctorReport } from '../../src/commands/doctor/report.js';
import { CATALOGUE, catalogueFields, recordsAt } from '../../src/service/catalogue.js';
import { EVENT_SOURCES } from '../../src/service/doctor-probe.js';
import { isRecord } from '../../src/service/read.js';

export const REPORT_KEYS = [
  'doctor',
  'sitebuilder',
  'profile',
  'baseUrl',
  'serviceVersion',
  'counted',
  'targets',
  'calls',
  'summary',
  'fields',
  'descriptions',
  'methods',
  'arguments',
  'notDescribed',
  'exitCode',
];
export const FIELD_KEYS = [
  'resource',
  'field',
  'what',
  'stated',
  'looked',
  'status',
  'method',
  'path',
  'paths',
  'records',
  'foundIn',
  'reason',
];
export const CALL_KEYS = [
  'method',
  'counted',
  'args',
  'why',
  'outcome',
  'status',
  'requestId',
  'records',
  'error',
  'exitCode',
  'shape',
];
export const TARGET_KEYS = [
  'workspace',
  'workspaceFrom',
  'site',
  'siteFrom',
  'run',
  'runFrom',
  'noWorkspace',
  'noSite',
  'noRun',
];

/** The keys of the report's other parts, each always there, in this order. */
export const PART_KEYS = {
  counted: ['made', 'max'],
  summary: ['fields', 'found', 'notFound', 'notChecked'],
  description: ['read', 'methods', 'unread'],
  method: ['method', 'problem', 'sources', 'scope', 'tokenHasScope'],
  argument: ['method', 'argument', 'problem', 'stated', 'registry', 'service', 'sources'],
  undescribed: ['what', 'method', 'sources'],
};

/** Whether a shape (service/skeleton.ts) has a path as doctor writes one: `a.b`, `items[].title`, `*.*[].text`, `.`. */
export function shapeHas(shape: unknown, path: string): boolean {
  if (path === '.') return true;
  const segs = path.split('.');
  const walk = (s: unknown, i: number): boolean => {
    if (i === segs.length) return true;
    const list = segs[i].endsWith('[]');
    const seg = list ? segs[i].slice(0, -2) : segs[i];
    let next: unknown[] =
      seg === '' ? [s] : seg === '*' ? (isRecord(s) ? Object.values(s) : []) : isRecord(s) && seg in s ? [s[seg]] : [];
    if (list) next = next.flatMap((n) => (Array.isArray(n) ? n : []));
    return next.some((n) => walk(n, i + 1));
  };
  return walk(shape, 0);
}

/** The shapes of the records a field of a resource was looked for in, from its call's answer shape. */
function recordShapes(report: DoctorReport, resource: string, field: string, method: string): unknown[] {
  const shape = report.calls.find((c) => c.method === method)?.shape;
  if (resource === 'job event data') {
    const kinds = EVENT_SOURCES[field as keyof typeof EVENT_SOURCES].kinds;
    const events = isRecord(shape) && Array.isArray(shape.events) ? shape.events : [];
    return events
      .filter((e) => isRecord(e) && kinds.includes(e.event as string))
      .map((e) => (e as { data: unknown }).data);
  }
  const place = CATALOGUE.find((e) => e.resource.name === resource)?.from.find((f) => f.method === method)?.at;
  return place ? recordsAt(shape, place) : [];
}

/** Checks a report's invariants; returns how many found paths were checked against their answer's shape. */
export function checkReport(report: DoctorReport, label: string): number {
  expect(Object.keys(report), label).toEqual(REPORT_KEYS);
  expect(Object.keys(report.targets), label).toEqual(TARGET_KEYS);
  expect(
    report.fields.map((f) => `${f.resource} ${f.field}`),
    label,
  ).toEqual(catalogueFields().map((f) => `${f.resource} ${f.field}`));
  let checked = 0;
  for (const f of report.fields) {
    const where = `${label}: ${f.resource} ${f.field}: ${JSON.stringify(f)}`;
    expect(Object.keys(f), where).toEqual(FIELD_KEYS);
    expect(['found', 'not found', 'not checked'], where).toContain(f.status);
    if (f.status === 'not checked') {
      expect(f.reason, where).toEqual(expect.stringMatching(/\S/));
      expect(f.path, where).toBeNull();
      continue;
    }
    expect(f.reason, where).toBeNull();
    expect(f.method, where).toEqual(expect.any(String));
    expect(f.records, where).toBeGreaterThan(0);
    if (f.status === 'not found') {
      expect([f.foundIn, f.path, f.paths], where).toEqual([0, null, []]);
      continue;
    }
    expect(f.path, where).toBe(f.paths[0]);
    expect(f.foundIn, where).toBeGreaterThan(0);
    expect(f.foundIn, where).toBeLessThanOrEqual(f.records);
    if (f.resource === 'page') {
      // Paging fields: in data (`data.hasMore`), or on the envelope, whose shape is not kept.
      const shape = report.calls.find((c) => c.method === f.method)?.shape;
      for (const p of f.paths.filter((x) => x.startsWith('data.')))
        expect(shapeHas(shape, p.slice(5)), where).toBe(true);
      continue;
    }
    const shapes = recordShapes(report, f.resource, f.field, f.method as string);
    for (const p of f.paths) {
      expect(
        shapes.some((s) => shapeHas(s, p)),
        `${where}\nnot in the answer's shape: ${JSON.stringify(shapes).slice(0, 2000)}`,
      ).toBe(true);
      checked++;
    }
  }
  for (const c of report.calls) expect(Object.keys(c), `${label}: ${c.method}`).toEqual(CALL_KEYS);
  expect(report.doctor, label).toBe(1);
  expect(Object.keys(report.counted), label).toEqual(PART_KEYS.counted);
  expect(Object.keys(report.summary), label).toEqual(PART_KEYS.summary);
  expect(Object.keys(report.descriptions), label).toEqual(['tools', 'openapi']);
  for (const d of Object.values(report.descriptions)) expect(Object.keys(d), label).toEqual(PART_KEYS.description);
  for (const m of report.methods) expect(Object.keys(m), label).toEqual(PART_KEYS.method);
  for (const a of report.arguments) expect(Object.keys(a), label).toEqual(PART_KEYS.argument);
  for (const u of report.notDescribed) expect(Object.keys(u), label).toEqual(PART_KEYS.undescribed);
  const made = report.calls.filter((c) => c.counted && ['read', 'refused', 'failed'].includes(c.outcome));
  expect(made.length, label).toBeLessThanOrEqual(5);
  expect(report.counted, label).toEqual({ made: made.length, max: 5 });
  for (const c of made) expect(methodInfo(c.method)?.write, `${label}: ${c.method}`).toBe(false);
  expect(report.summary.fields, label).toBe(report.fields.length);
  expect(report.summary.found + report.summary.notFound + report.summary.notChecked, label).toBe(report.fields.length);
  return checked;
}
