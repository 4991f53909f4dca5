// Bundles src/ into dist/ with esbuild. Runs on `npm install` (prepare), so a fresh clone needs nothing else.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
// The light method index the client reads (the registry compiled to JSON Schema).
await import('./gen-method-index.mjs');

await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  // Heavy modules (zod, conf/ajv, enquirer, ora, the emulator) sit in chunks loaded only by the
  // commands that need them: start-up parses only what --help needs.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // commander, cli-table3 and enquirer are CommonJS: an ESM bundle needs a real `require`.
  banner: { js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);" },
  define: { __SITEBUILDER_VERSION__: JSON.stringify(version) },
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});

// The texts bin/ prints without starting the CLI: the version and every command's --help.
const { helpTexts } = await import(new URL('../dist/cli.js', import.meta.url).href);
writeFileSync(new URL('../dist/static.json', import.meta.url), JSON.stringify({ version, help: await helpTexts() }));
