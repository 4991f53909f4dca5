// Start-up budget guard: what the CLI loads before a command runs must stay light. Heavy
// modules (zod, conf/ajv, enquirer, ora, the emulator, the renderer's views) are imported with
// `await import()` inside the commands that need them; commander reads every command line.
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const HEAVY = /node_modules\/(zod|conf|ajv|ajv-formats|enquirer|ora|semver)\/|src\/emulator\//;

describe('start-up module graph', () => {
  it('loads no heavy module statically from the CLI entry', async () => {
    const result = await build({
      entryPoints: { cli: 'src/cli.ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      splitting: true,
      outdir: '/tmp/sitebuilder-graph-check',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const outputs = result.metafile.outputs;
    const entry = Object.keys(outputs).find((o) => o.endsWith('/cli.js'))!;
    const seen = new Set<string>();
    const stack = [entry];
    while (stack.length) {
      const out = stack.pop()!;
      if (seen.has(out)) continue;
      seen.add(out);
      for (const imp of outputs[out].imports)
        if (imp.kind === 'import-statement' && outputs[imp.path]) stack.push(imp.path);
    }
    const inputs = [...seen].flatMap((o) => Object.keys(outputs[o].inputs));
    expect(inputs.filter((i) => HEAVY.test(i))).toEqual([]);
    const bytes = [...seen].reduce((n, o) => n + outputs[o].bytes, 0);
    // About 301 KB today, commander (130 KB) and the method index (37 KB as JSON) included; the
    // client's and the IO object's files of issue 23 added about 2.6 KB, the stale runs' and the
    // restore's hints about 1 KB (test/e2e/binary.test.ts); loading the retries and the
    // prompts' showing only when needed took 12 KB off (292.3 KB).
    expect(bytes).toBeLessThan(293_800);
  });
});
