// zod writes the method registry (src/api/methods.ts) and is needed at build time only:
// scripts/gen-method-index.mjs compiles the registry into src/api/method-index.json, which is
// all the client and the emulator read when they run. Nothing of zod may reach dist/.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('zod at build time only', () => {
  it('is a development dependency, not a runtime one', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.dependencies ?? {})).not.toContain('zod');
    expect(Object.keys(pkg.devDependencies)).toContain('zod');
  });

  it('reaches no module of the CLI or the emulator, loaded statically or with import()', async () => {
    const result = await build({
      entryPoints: { cli: join(root, 'src/cli.ts') },
      bundle: true,
      platform: 'node',
      format: 'esm',
      splitting: true,
      outdir: '/tmp/sitebuilder-zod-check',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((i) => i.startsWith('src/emulator/'))).toBe(true);
    expect(inputs.filter((i) => /node_modules\/zod\/|src\/api\/methods\.ts$/.test(i))).toEqual([]);
  });

  it('is in no file of the built dist/', () => {
    const dist = join(root, 'dist');
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    expect(files.length, 'run `npm run build` first').toBeGreaterThan(10);
    // zod 4 keeps its internals under `_zod` on every schema, and throws ZodError.
    for (const f of files) expect(readFileSync(join(dist, f), 'utf8'), f).not.toMatch(/\b_zod\b|ZodError/);
  });
});
