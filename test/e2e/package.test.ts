// The npm package as a user installs it (docs/CONTRIBUTING.md "The package"): its runtime
// dependencies are exactly what the built files require, and the licences of the code bundled
// into dist/ ship beside it.
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
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
      ts.ScriptTarget.Latest,
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
});
