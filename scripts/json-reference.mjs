// Rewrites the "JSON reference" table of docs/scripting.md (between the json-reference markers)
// from the jsonFields of every command in the tree: `npm run docs:json`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'sb-json-ref-'));
const out = join(dir, 'tree.mjs');
try {
  await build({
    stdin: {
      contents: "export { jsonReferenceTable } from './scripts/json-reference-table.ts';",
      resolveDir: root.pathname,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'error',
    banner: { js: "import { createRequire as __c } from 'node:module'; const require = __c(import.meta.url);" },
  });
  const { jsonReferenceTable } = await import(pathToFileURL(out).href);
  const docPath = new URL('docs/scripting.md', root);
  const doc = readFileSync(docPath, 'utf8');
  const start = '<!-- json-reference:start -->';
  const end = '<!-- json-reference:end -->';
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error('docs/scripting.md has no json-reference markers.');
  writeFileSync(docPath, `${doc.slice(0, a + start.length)}\n${await jsonReferenceTable()}\n${doc.slice(b)}`);
  console.log('docs/scripting.md: JSON reference updated.');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
