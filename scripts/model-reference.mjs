// Rewrites the readers' table of docs/real-service.md (between the model-catalogue markers) from
// the service model's catalogue (src/service/catalogue.ts): `npm run docs:model`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'sb-model-ref-'));
const out = join(dir, 'catalogue.mjs');
try {
  await build({
    entryPoints: [new URL('src/service/catalogue.ts', root).pathname],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'error',
  });
  const { catalogueTable } = await import(pathToFileURL(out).href);
  const docPath = new URL('docs/real-service.md', root);
  const doc = readFileSync(docPath, 'utf8');
  const start = '<!-- model-catalogue:start -->';
  const end = '<!-- model-catalogue:end -->';
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error('docs/real-service.md has no model-catalogue markers.');
  writeFileSync(docPath, `${doc.slice(0, a + start.length)}\n${catalogueTable()}\n${doc.slice(b)}`);
  console.log('docs/real-service.md: the model’s catalogue updated.');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
