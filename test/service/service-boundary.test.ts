// One home for reading the service's answers (docs/real-service.md "The service model"): outside
// src/service/ (and the emulator, which is the service), no code looks a field of an answer up by
// one of the names the model reads: no alias list of them, no `x['name']`, no `'name' in x`, no
// pick-like call. The names come from the model's own catalogue, so a field the model learns to
// read is covered the day it is added. And one time parser, one newest-first.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript-5';
import { describe, expect, it } from 'vitest';
import { catalogueFields } from '../../src/service/catalogue.js';
import { LIST_KEYS } from '../../src/service/page.js';

const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
/**
 * The model itself, the emulator (the service's side, which writes these names), and the Markdown
 * renderer, whose records are the tokens of its own lexer (a `text` token), built from text the
 * model has already read.
 */
const EXEMPT = [join(SRC, 'service'), join(SRC, 'emulator'), join(SRC, 'render', 'markdown')];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return EXEMPT.includes(p) ? [] : files(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** The envelope's fields: stated, and read by the transport (api/client.ts). */
const ENVELOPE = new Set(['success', 'message', 'data', 'code', 'version', 'count']);

/**
 * Every field name the model reads that the reference does not state (the guesses), from its
 * catalogue: each segment of each such path, and where a listing's records may be.
 */
const NAMES = new Set(
  [
    ...catalogueFields().flatMap((f) =>
      f.looked.filter((p) => !f.statedPaths.includes(p)).flatMap((p) => p.split('.')),
    ),
    ...LIST_KEYS,
  ].filter((n) => n !== '*' && n !== '' && n !== '.' && !ENVELOPE.has(n)),
);

interface Finding {
  file: string;
  line: number;
  what: string;
}

function findings(file: string): Finding[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Finding[] = [];
  const named = (n: ts.Node): n is ts.StringLiteral => ts.isStringLiteral(n) && NAMES.has(n.text);
  const add = (n: ts.Node, what: string) =>
    out.push({
      file: relative(ROOT, file),
      line: source.getLineAndCharacterOfPosition(n.getStart()).line + 1,
      what: `${what}: ${n.getText().slice(0, 80)}`,
    });
  const visit = (n: ts.Node) => {
    if (ts.isImportDeclaration(n) && /\bpick(String)?\b|\basRecord\b/.test(n.importClause?.getText() ?? ''))
      add(n, 'a field picker imported');
    if (ts.isElementAccessExpression(n) && named(n.argumentExpression)) add(n, 'a field looked up by name');
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.InKeyword && named(n.left))
      add(n, 'a field tested by name');
    // An alias list: two names or more, and nothing but names.
    const aliases = (items: readonly ts.Node[]) => {
      const strings = items.filter(ts.isStringLiteral);
      return (
        strings.length === items.length &&
        new Set(strings.filter(named).map((s) => s.text)).size >= 2 &&
        strings.every(named)
      );
    };
    if (ts.isArrayLiteralExpression(n) && aliases(n.elements)) add(n, 'a list of field names');
    if (ts.isCallExpression(n) && n.arguments.length >= 3 && aliases(n.arguments.slice(1)))
      add(n, 'a call with field names');
    ts.forEachChild(n, visit);
  };
  visit(source);
  return out;
}

describe('the service model is the only reader of the service’s answers', () => {
  it('takes its names from the catalogue, and finds the reads it forbids', () => {
    for (const n of ['createdAt', 'created_at', 'liveUrl', 'todos', 'cancelledJobId', 'startedJobId'])
      expect(NAMES.has(n), n).toBe(true);
    // Stated names are not guesses: the envelope's, get_job's, QueueVersion.
    for (const n of ['data', 'events', 'QueueVersion', 'oldestCursor']) expect(NAMES.has(n), n).toBe(false);
    const planted = join(mkdtempSync(join(tmpdir(), 'sb-boundary-')), 'planted.ts');
    writeFileSync(
      planted,
      [
        "import { pick } from './somewhere.js';",
        "const t = pick(r, 'createdAt', 'created_at');",
        "const u = r['liveUrl'];",
        "const has = 'todos' in r;",
        "const names = ['jobId', 'job_id'];",
        "const fine = ['status', value, 'status'];",
      ].join('\n'),
    );
    expect(findings(planted).map((f) => f.what.split(':')[0])).toEqual([
      'a field picker imported',
      'a call with field names',
      'a field looked up by name',
      'a field tested by name',
      'a list of field names',
    ]);
  });

  it('0 reads of alternative field names outside src/service/', () => {
    const all = files(SRC).flatMap(findings);
    expect(all.map((f) => `${f.file}:${f.line} ${f.what}`)).toEqual([]);
  });

  it('one time parser and one newest-first', () => {
    const defining = (re: RegExp) =>
      [...files(SRC), ...readdirSync(join(SRC, 'service')).map((f) => join(SRC, 'service', f))]
        .filter((f) => re.test(readFileSync(f, 'utf8')))
        .map((f) => relative(SRC, f));
    expect(defining(/export (function|const) newestFirst\b/)).toEqual(['service/time.ts']);
    expect(defining(/export (function|const) (parseTime|timeOf|timeValue|createdMs|recordTime)\b/)).toEqual([
      'service/time.ts',
    ]);
    expect(defining(/Date\.parse\(/)).toEqual(['service/time.ts']);
  });
});
