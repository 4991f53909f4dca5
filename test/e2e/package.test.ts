// The npm package as a user installs it (docs/CONTRIBUTING.md "The package"): its runtime
// dependencies are exactly what the built files require, the licences of the code bundled into
// dist/ ship beside it, every link of the shipped Markdown leads to a shipped file, and the
// packed tarball installed into a prefix of its own runs, with its man page.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import ts from 'typescript-5';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator } from '../../src/emulator/index.js';
import { tempConfigDir } from '../helpers/run.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

/** Every file under a directory, recursively. */
const filesUnder = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));

/**
 * What built files require, read with TypeScript's parser (comments and strings hold no call):
 * every `require('x')` and `createRequire(…)('x')`, and every require of something not written
 * out. The packs call `require` as their functions' parameter, which bin/ hands them.
 */
function requiredBy(files: string[]): { specifiers: Set<string>; dynamic: string[] } {
  const specifiers = new Set<string>();
  const dynamic: string[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(
      file,
      readFileSync(join(ROOT, file), 'utf8'),
      // Comments are not parsed for JSDoc types: no call is in one.
      { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
      false,
      ts.ScriptKind.JS,
    );
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const plain = ts.isIdentifier(callee) && callee.text === 'require';
        const created = ts.isCallExpression(callee) && /\bcreateRequire$/.test(callee.expression.getText(source));
        if (plain || created) {
          const [arg] = node.arguments;
          if (node.arguments.length === 1 && ts.isStringLiteralLike(arg)) specifiers.add(arg.text);
          else dynamic.push(`${file}: ${node.getText(source)}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { specifiers, dynamic };
}

/** The package a bare specifier names ('@scope/name/x' → '@scope/name'); undefined for a built-in or a path. */
const packageOf = (specifier: string): string | undefined =>
  specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)
    ? undefined
    : specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');

describe('the package', () => {
  it('depends at run time on exactly what bin/ and dist/ require: the bundled packages are devDependencies', async () => {
    const shipped = [...filesUnder('bin'), ...filesUnder('dist')].filter((f) => /\.c?js$/.test(f));
    expect(shipped).toContain('dist/cli.js');
    expect(shipped.filter((f) => f.startsWith('dist/chunks/')).length).toBeGreaterThan(10);
    const { specifiers, dynamic } = requiredBy(shipped);
    // bin/'s loader: it hands each pack's require to a chunk of dist/ or to Node's own.
    expect(dynamic).toEqual(['bin/sitebuilder.js: require(id)']);
    expect(specifiers).toContain('node:http');
    const packages = new Set([...specifiers].map(packageOf).filter((p) => p !== undefined));
    expect([...packages].sort()).toEqual(Object.keys(pkg.dependencies ?? {}).sort());
    for (const bundled of ['chalk', 'commander', 'enquirer']) expect(pkg.devDependencies).toHaveProperty(bundled);
  });

  it('ships the licence of every package bundled into dist/, as the package has it', async () => {
    const { metafile } = await build({
      absWorkingDir: ROOT,
      entryPoints: ['src/cli.ts'],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      outdir: 'out',
      splitting: true,
      metafile: true,
      logLevel: 'silent',
    });
    const bundled = new Set(
      Object.keys(metafile.inputs)
        .map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\/[^@]*$/.exec(input)?.[1])
        .filter((name): name is string => name !== undefined),
    );
    expect([...bundled]).toEqual(expect.arrayContaining(['chalk', 'commander', 'enquirer']));
    const notices = readFileSync(join(ROOT, 'dist/THIRD-PARTY-NOTICES'), 'utf8');
    const named = [...notices.matchAll(/^=+\n(\S+) (\S+) \(([^)]*)\)/gm)].map((m) => m[1]);
    expect(named.sort()).toEqual([...bundled].sort());
    for (const name of bundled) {
      const dir = join(ROOT, 'node_modules', name);
      const licence = readdirSync(dir).find((f) => /^licen[cs]e(\.(md|txt))?$/i.test(f));
      expect(licence, `${name} has a licence file`).toBeDefined();
      expect(notices).toContain(readFileSync(join(dir, licence as string), 'utf8').trim());
      const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
      expect(notices).toContain(`${name} ${version} (`);
    }
  });

  it('holds what a user needs and links to, and nothing of the sources', async () => {
    const files = new Set((await packed()).files.map((f) => f.path));
    for (const f of ['LICENSE', 'README.md', 'sitebuilder.1', 'bin/sitebuilder.js', 'dist/cli.js', 'dist/build-id'])
      expect(files, f).toContain(f);
    expect(files).toContain('dist/THIRD-PARTY-NOTICES');
    expect(files).toContain('completions/sitebuilder.bash');
    expect([...files].filter((f) => /^(src|test|scripts|bench|\.ci)\/|\.ts$/.test(f))).toEqual([]);
    // Every relative link of the shipped Markdown (README.md, docs/) leads to a file in the package.
    const broken: string[] = [];
    for (const doc of [...files].filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const path = target.split('#')[0];
        if (!path || /^[a-z]+:/i.test(path)) continue;
        if (!files.has(normalize(join(dirname(doc), path)))) broken.push(`${doc} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('installs from its tarball into a prefix of its own, with no dependency, and runs there', async () => {
    const { tmp, env, tarball } = await packed();
    const prefix = join(tmp, 'prefix');
    await run('npm', ['install', '--global', '--prefix', prefix, '--offline', '--ignore-scripts', tarball], { env });
    const installed = join(prefix, 'lib', 'node_modules', pkg.name);
    expect(existsSync(join(installed, 'node_modules'))).toBe(false);
    // The man page is linked where `man` looks under the prefix.
    const page = join(prefix, 'share', 'man', 'man1', 'sitebuilder.1');
    expect(realpathSync(page)).toBe(realpathSync(join(installed, 'sitebuilder.1')));
    const bin = join(prefix, 'bin', 'sitebuilder');
    const version = await run(bin, ['--version'], { env });
    expect(version.stdout.trim()).toBe(pkg.version);
    const emu = await startEmulator({ port: 0 });
    try {
      const res = await run(bin, ['workspace', 'list'], {
        env: {
          ...env,
          SITEBUILDER_CONFIG_DIR: tempConfigDir(),
          SITEBUILDER_BASE_URL: emu.baseUrl,
          SITEBUILDER_TOKEN: DEMO_TOKENS.full,
        },
      });
      expect(res.stdout).toMatch(/^ws_demo\t/m);
    } finally {
      await emu.close();
    }
    // The code cache went to the temporary home, not into the installed package.
    expect(readdirSync(join(tmp, 'home', '.cache', 'sitebuilder')).length).toBe(1);
    expect(readdirSync(installed).sort()).toEqual(
      [
        'LICENSE',
        'README.md',
        'bin',
        'completions',
        'dist',
        'docs',
        'examples',
        'package.json',
        'sitebuilder.1',
      ].sort(),
    );
  });
});

const run = promisify(execFile);
let packing: Promise<{ tmp: string; env: Record<string, string>; tarball: string; files: { path: string }[] }>;

/**
 * `npm pack --json` (the build's scripts not run), once for this file's tests: the tarball in a
 * temporary directory, and the files it holds. npm's cache, logs and settings go to that
 * directory, never the real home's.
 */
function packed(): typeof packing {
  packing ??= (async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'sb-package-'));
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: join(tmp, 'home'),
      npm_config_cache: join(tmp, 'npm-cache'),
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    };
    const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], {
      cwd: ROOT,
      env,
    });
    const [{ filename, files }] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    return { tmp, env, tarball: join(tmp, filename), files };
  })();
  return packing;
}
