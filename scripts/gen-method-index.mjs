// Compiles the method registry (src/api/methods.ts, zod) into src/api/method-index.json: each
// method's metadata and its argument schema as JSON Schema, each argument marked `x-stated`
// where the service's documentation states it. Everything that runs reads that
// index (the client's and the emulator's validation, OpenAPI, /v1/tools), so zod is needed at
// build time only. Run by the build; a test fails when the committed file is out of date.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = `
import * as z from 'zod/mini';
import { METHODS } from './src/api/methods.ts';
export const index = {};
for (const [name, m] of Object.entries(METHODS)) {
  const { $schema, ...schema } = z.toJSONSchema(m.args);
  index[name] = { scope: m.scope, write: m.write, destructive: m.destructive, listing: m.listing ?? null,
    permission: m.permission ?? null, argsShown: m.argsShown, analytics: Boolean(m.analytics),
    largeAnswer: Boolean(m.largeAnswer), summary: m.summary, schema };
}`;
const dir = mkdtempSync(join(tmpdir(), 'sitebuilder-gen-'));
const file = join(dir, 'gen.mjs');
try {
  await build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: file,
    logLevel: 'warning',
  });
  const { index } = await import(pathToFileURL(file).href);
  writeFileSync(join(root, 'src/api/method-index.json'), `${JSON.stringify(index, null, 1)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
