// doctor's report: one document, the same whatever the service answers (every key always
// there), which `--json` prints as it is and the views of print.ts lay out. It holds no token
// and no value of the user's data: ids named in the calls' arguments, the field paths found,
// and each answer's shape (keys and types).
import type { Context } from '../../context.js';
import { CATALOGUE } from '../../service/catalogue.js';
import { type Description, openApiDescription, toolsDescription } from '../../service/description.js';
import {
  type ArgumentFinding,
  argumentFindings,
  type MethodFinding,
  methodFindings,
  type Undescribed,
  undescribed,
} from './compare.js';
import { openApiDocumentOf } from '../../service/discovery.js';
import { readTokenInfo } from '../../service/token.js';
import { COUNTED_CALLS_MAX, type Reading, readingExitCode } from './calls.js';
import { type FieldRow, fieldRows } from './fields.js';
import type { CallRecord, Targets } from './plan.js';

/** The version of the report's layout: raised when a key changes meaning or goes away. */
export const REPORT_VERSION = 1;

export interface DescriptionSummary {
  /** It was read (its call answered). */
  read: boolean;
  /** How many methods it lists. */
  methods: number;
  /** What in it could not be read as a method. */
  unread: string[];
}

export interface DoctorReport {
  doctor: number;
  sitebuilder: string;
  profile: string;
  baseUrl: string;
  /** The envelope's `version` of the first answer that carried one. */
  serviceVersion: string | null;
  counted: { made: number; max: number };
  targets: Required<{ [K in keyof Targets]: string | null }>;
  calls: CallRecord[];
  summary: { fields: number; found: number; notFound: number; notChecked: number };
  fields: FieldRow[];
  descriptions: { tools: DescriptionSummary; openapi: DescriptionSummary };
  methods: MethodFinding[];
  arguments: ArgumentFinding[];
  notDescribed: Undescribed[];
  exitCode: number;
}

/** Every answer whose fields the catalogue reads: methods, and the GET addresses. */
const answersRead = (): string[] => [
  ...new Set(CATALOGUE.flatMap((e) => e.from.map((f) => f.method)).filter((m) => m !== 'every listing')),
];

function descriptionsOf(reading: Reading): { read: Description[]; summary: DoctorReport['descriptions'] } {
  const tools = reading.answers.get('GET /v1/tools');
  const openapi = reading.answers.get('GET /v1/openapi.json');
  const read: Description[] = [];
  if (tools) read.push(toolsDescription(tools.data));
  if (openapi) read.push(openApiDescription(openApiDocumentOf(openapi.result.envelope)));
  const summaryOf = (source: Description['source']): DescriptionSummary => {
    const d = read.find((x) => x.source === source);
    return {
      read: d !== undefined,
      methods: d ? [...d.methods.keys()].filter((m) => !m.startsWith('GET ')).length : 0,
      unread: d?.unread ?? [],
    };
  };
  return { read, summary: { tools: summaryOf('tools'), openapi: summaryOf('openapi') } };
}

export function buildReport(ctx: Context, reading: Reading): DoctorReport {
  const fields = fieldRows(reading);
  const { read, summary } = descriptionsOf(reading);
  const token = reading.answers.get('GET /v1/token');
  const scopes = token ? readTokenInfo(token.data).scopes : [];
  const t = reading.targets;
  const count = (s: FieldRow['status']) => fields.filter((f) => f.status === s).length;
  const version = [...reading.answers.values()]
    .map((a) => a.result.envelope.version)
    .find((v) => typeof v === 'string');
  return {
    doctor: REPORT_VERSION,
    sitebuilder: ctx.version,
    profile: ctx.profileName(),
    baseUrl: ctx.baseUrl(),
    serviceVersion: version ?? null,
    counted: {
      made: reading.calls.filter((c) => c.counted && c.outcome !== 'skipped' && c.outcome !== 'not made').length,
      max: COUNTED_CALLS_MAX,
    },
    targets: {
      workspace: t.workspace ?? null,
      workspaceFrom: t.workspaceFrom ?? null,
      site: t.site ?? null,
      siteFrom: t.siteFrom ?? null,
      run: t.run ?? null,
      runFrom: t.runFrom ?? null,
      noWorkspace: t.noWorkspace ?? null,
      noSite: t.noSite ?? null,
      noRun: t.noRun ?? null,
    },
    calls: reading.calls,
    summary: {
      fields: fields.length,
      found: count('found'),
      notFound: count('not found'),
      notChecked: count('not checked'),
    },
    fields,
    descriptions: summary,
    methods: methodFindings(read, scopes.length ? scopes : undefined),
    arguments: argumentFindings(read),
    notDescribed: read.length ? undescribed(read, answersRead()) : [],
    exitCode: readingExitCode(reading.calls),
  };
}
