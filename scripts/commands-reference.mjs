// Writes docs/commands.md and the man page sitebuilder.1 from the command tree
// (scripts/commands-doc.ts, scripts/man-page.ts): `npm run docs:commands`.
// test/scripts/commands-reference.test.ts and test/scripts/man-page.test.ts fail while a committed file differs.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'sb-commands-ref-'));
const out = join(dir, 'reference.mjs');
try {
  await build({
    stdin: {
      contents: "export { commandsReference } from './commands-doc.ts'; export { manPage } from './man-page.ts';",
      resolveDir: new URL('scripts/', root).pathname,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'error',
    banner: { js: "import { createRequire as __c } from 'node:module'; const require = __c(import.meta.url);" },
  });
  const { commandsReference, manPage } = await import(pathToFileURL(out).href);
  writeFileSync(new URL('docs/commands.md', root), await commandsReference());
  const { version, description } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  writeFileSync(new URL('sitebuilder.1', root), await manPage(version, description));
  console.log('docs/commands.md and sitebuilder.1 written.');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
