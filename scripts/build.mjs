// Bundles src/ into dist/ with esbuild. Runs on `npm install` (prepare), so a fresh clone needs nothing else.
//
// Three steps, for start-up time (the budgets of README.md "Performance", docs/architecture.md "Start-up"):
// 1. One esbuild bundle of src/cli.ts, split into chunks: heavy modules (enquirer, the emulator)
//    and every noun sit in chunks loaded only by the commands that need them.
// 2. Each chunk is turned into CommonJS, with `import()` made a `require()`: no ES module loader
//    (about 5 ms to start on Node 20, 0.7 ms a module).
// 3. The chunks are written in packs, one file for each chunk loaded at run time with the chunks
//    it needs: bin/ reads two for `site list` (twenty chunks), each with its own code cache.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import { helpFileName } from '../bin/help-file.cjs';
import { bundledPackageDirs, thirdPartyNotices } from './notices.mjs';

const root = new URL('../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const dist = new URL('dist/', root);

/**
 * commander requires node:child_process when it loads, for executable subcommands, which we do
 * not use; on Node 24 loading it (with dgram and four bindings) costs every command about 3 ms.
 * Here it is required on first use instead. The build fails if commander's line changes.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) throw new Error(`${args.path}: no \`${eager}\` to make lazy; see lazyChildProcess`);
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

/** Non-ASCII characters as \u escapes (what is left of them after esbuild: comments, JSON texts). */
const ascii = (text) => text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * JSON imports (the method index, 25 KB) as an object of JSON texts, one an entry, that their
 * reader parses when it needs one (src/api/method-index.ts): an API command reads one method's.
 * ASCII texts, which V8 holds in one byte a character.
 */
const jsonEntriesAsText = {
  name: 'json-entries-as-text',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.json$/ }, async (args) => {
      const value = JSON.parse(await readFile(args.path, 'utf8'));
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${args.path}: not an object`);
      const texts = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, ascii(JSON.stringify(v))]));
      return { contents: `export default ${JSON.stringify(texts)};`, loader: 'js' };
    });
  },
};

rmSync(dist, { recursive: true, force: true });
// The light method index the client reads (the registry compiled to JSON Schema).
await import('./gen-method-index.mjs');

const { outputFiles, metafile } = await build({
  entryPoints: { cli: 'src/cli.ts' },
  write: false,
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  define: { __SITEBUILDER_VERSION__: JSON.stringify(version) },
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  plugins: [lazyChildProcess, jsonEntriesAsText],
});

/**
 * esbuild's CommonJS module object copies every export, as a getter, onto a second object: each
 * Object.defineProperty costs V8 a map transition, a few hundred per command. The module's own
 * export object, with its getters, serves as well.
 */
const COPIED_EXPORTS = 'var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);';
const leanExports = (file, code) => {
  if (!code.includes('__toCommonJS(')) return code;
  if (!code.includes(COPIED_EXPORTS)) throw new Error(`${file}: esbuild's __toCommonJS changed; see leanExports`);
  return code.replace(COPIED_EXPORTS, 'var __toCommonJS = (mod) => __defProp(mod, "__esModule", { value: true });');
};

/** Step 2: each output file as CommonJS, by its path under dist/ ("cli.js", "chunks/site-….js"). */
const units = new Map();
for (const { path: outPath, text: code } of outputFiles) {
  const file = relative(fileURLToPath(dist), outPath).split(sep).join('/');
  const usesMetaUrl = code.includes('import.meta.url');
  const result = await transform(code, {
    loader: 'js',
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    // import() of a chunk or a built-in becomes require(): no ES module loader at all.
    supported: { 'dynamic-import': false },
    // Worked out when read, not when the chunk loads (node:url costs start-up time).
    define: usesMetaUrl ? { 'import.meta.url': '__sbImportMeta.url' } : {},
    // Strict, as the ES modules were.
    banner: `'use strict';${usesMetaUrl ? "\nconst __sbImportMeta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };" : ''}`,
    logLevel: 'warning',
  });
  if (/\bimport\.meta\b/.test(result.code)) throw new Error(`${file}: import.meta left after the CommonJS step`);
  // bin/ runs the chunks as plain scripts (vm.Script, for the code cache): import() cannot work there.
  if (/\bimport\(/.test(result.code)) throw new Error(`${file}: import() left after the CommonJS step`);
  // ASCII only (esbuild escapes strings; a comment may keep a `…`): bin/ reads the files as
  // latin1, and V8 holds an ASCII source in one byte a character, not two.
  units.set(file, ascii(leanExports(file, result.code)));
}

// The texts bin/ prints without starting the CLI: every command's --help, one small file each
// (dist/help/site.list.txt; _root.txt for the program), so that `--help` reads only its own.
// Read from the CommonJS files as Node's own require() loads them, in a directory of their own.
const unitsDir = mkdtempSync(join(tmpdir(), 'sitebuilder-build-'));
try {
  for (const [file, code] of units) {
    mkdirSync(dirname(join(unitsDir, file)), { recursive: true });
    writeFileSync(join(unitsDir, file), code);
  }
  writeFileSync(join(unitsDir, 'package.json'), '{ "type": "commonjs" }\n');
  const { helpTexts } = createRequire(import.meta.url)(join(unitsDir, 'cli.js'));
  mkdirSync(new URL('help/', dist), { recursive: true });
  for (const [path, text] of Object.entries(await helpTexts()))
    writeFileSync(new URL(`help/${helpFileName(path)}`, dist), text);
} finally {
  rmSync(unitsDir, { recursive: true, force: true });
}

/**
 * Step 3: packs. Reading, compiling and running a file costs bin/ about a tenth of a
 * millisecond whatever its size, and `site list` needs some twenty chunks: each file bin/ reads
 * is the static closure of a file that is loaded at run time (cli.js, and every target of an
 * `import()`), under that file's name, less what cli.js's pack already holds. A pack is one
 * script whose value maps each chunk's path to its CommonJS function; a chunk in two packs runs
 * once (bin/ keeps the first). `site list` reads two: cli.js (commander included) and the site noun.
 */
const outputs = Object.fromEntries(
  Object.entries(metafile.outputs).map(([out, { imports }]) => [
    relative('dist', out).split(sep).join('/'),
    imports
      .filter((i) => !i.external)
      .map((i) => ({ kind: i.kind, file: relative('dist', i.path).split(sep).join('/') })),
  ]),
);
const closure = (entry) => {
  const seen = new Set();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of outputs[file]) if (i.kind === 'import-statement') stack.push(i.file);
  }
  return seen;
};
const loadedAtRunTime = new Set(['cli.js']);
for (const imports of Object.values(outputs))
  for (const i of imports) if (i.kind === 'dynamic-import') loadedAtRunTime.add(i.file);
const core = closure('cli.js');
// A large chunk that two packs would hold (the emulator, for `emulator` and `demo`) gets a pack
// of its own instead, read when one of them first requires it: the package stays smaller.
const holders = new Map();
for (const entry of loadedAtRunTime)
  for (const f of closure(entry)) if (!core.has(f)) holders.set(f, (holders.get(f) ?? 0) + 1);
const own = [...holders].filter(([f, n]) => n > 1 && units.get(f).length >= 50_000).map(([f]) => f);
for (const f of own) loadedAtRunTime.add(f);
// The build id names bin/'s code cache (V8 checks a cache against the source's length only).
const hash = createHash('sha256');
mkdirSync(new URL('chunks/', dist), { recursive: true });
/**
 * esbuild writes its runtime helpers (`var __export = …`) at the head of every CommonJS file, and
 * a note for Node's ES module loader at its end (`0 && (module.exports = …)`). In a pack, each
 * helper is written once for all its chunks (a chunk whose helper differs keeps its own), and
 * the note goes: some twenty closures and 1.5 KB less a chunk.
 */
const canonicalHelpers = new Map();
const packed = (file, code) => {
  const lines = code
    .replace(
      /\n\/\/ Annotate the CommonJS export names for ESM import in node:\n0 && \(module\.exports = [^;]*\);\n?$/,
      '\n',
    )
    .split('\n');
  let at = lines[0] === "'use strict';" ? 1 : 0;
  const kept = lines.slice(0, at);
  const shared = [];
  while (at < lines.length && /^var __\w+ = /.test(lines[at])) {
    let end = at + 1;
    while (end < lines.length && /^[\s})]/.test(lines[end])) end++;
    const text = lines.slice(at, end).join('\n');
    const name = /^var (__\w+)/.exec(text)[1];
    if (!canonicalHelpers.has(name)) canonicalHelpers.set(name, text);
    (canonicalHelpers.get(name) === text ? shared : kept).push(text);
    at = end;
  }
  if (!lines.slice(at).join('\n').includes('module.exports'))
    throw new Error(`${file}: not a CommonJS module after its helpers`);
  return { shared, body: [...kept, ...lines.slice(at)].join('\n') };
};
for (const entry of [...loadedAtRunTime].sort()) {
  const members = [...closure(entry)].filter(
    (f) => entry === 'cli.js' || (!core.has(f) && (f === entry || !own.includes(f))),
  );
  const helpers = new Set();
  const functions = members.map((f) => {
    if (!units.has(f)) throw new Error(`${f}: imported by the build's metafile but not written`);
    const { shared, body } = packed(f, units.get(f));
    for (const h of shared) helpers.add(h);
    return `${JSON.stringify(f)}: function (exports, require, module, __filename, __dirname) {\n${body}\n},\n`;
  });
  const pack = `'use strict';\n(() => {\n${[...helpers].join('\n')}\nreturn {\n${functions.join('')}};\n})()\n`;
  writeFileSync(new URL(entry, dist), pack);
  hash.update(entry).update(pack);
}
// The root package is "type": "module"; the files under dist/ are bin/'s packs.
writeFileSync(new URL('package.json', dist), '{ "type": "commonjs" }\n');
writeFileSync(new URL('build-id', dist), `${hash.digest('hex').slice(0, 16)}\n`);
// The licences of the packages bundled above, shipped beside them (scripts/notices.mjs).
writeFileSync(
  new URL('THIRD-PARTY-NOTICES', dist),
  thirdPartyNotices(fileURLToPath(root), bundledPackageDirs(metafile)),
);
