// Writes docs/commands.md from the command tree (scripts/commands-doc.ts): `npm run docs:commands`.
// test/unit/commands-reference.test.ts fails while the committed file differs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'sb-commands-ref-'));
const out = join(dir, 'reference.mjs');
try {
  await build({
    entryPoints: [new URL('scripts/commands-doc.ts', root).pathname],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'error',
    banner: { js: "import { createRequire as __c } from 'node:module'; const require = __c(import.meta.url);" },
  });
  const { commandsReference } = await import(pathToFileURL(out).href);
  writeFileSync(new URL('docs/commands.md', root), await commandsReference());
  console.log('docs/commands.md written.');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
