// `npm test`: the build, then the type check, the lint and the suite side by side
// (docs/CONTRIBUTING.md "Tests"). The suite spends much of its time waiting (on terminals, child
// processes, an emulator's clock), and the type check and the lint fill those waits instead of
// running before it: on 2 cores, about 10 s less. Each still runs whole; their output is printed
// once they end, after the suite's, and the exit code is the first that is not 0. Arguments go
// to vitest (`npm test -- test/api`).
// The type check is TypeScript 7's native compiler (docs/CONTRIBUTING.md "Dependencies"), called
// by its package's path: `typescript-5`, kept for its parser, has a `tsc` too. It is incremental,
// its state in the suite's cache directory (vitest.config.ts): a second run after a small change
// checks what the change reaches.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const cache = join(tmpdir(), `sitebuilder-test-cache-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`);
mkdirSync(cache, { recursive: true });

/** Runs a command; `quiet` keeps its output to print later. Resolves with its code and output. */
function run(label, command, args, quiet) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: root, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    child.stdout?.on('data', (c) => (out += c));
    child.stderr?.on('data', (c) => (out += c));
    child.on('error', (err) => resolve({ label, code: 1, out: `${err.message}\n`, ms: Date.now() - started }));
    child.on('close', (code, signal) =>
      resolve({ label, code: code ?? (signal ? 1 : 0), out, ms: Date.now() - started }),
    );
  });
}

const build = await run('build', process.execPath, [join(root, 'scripts/build.mjs')], false);
if (build.code !== 0) process.exit(build.code);

const side = [
  run(
    'tsc --noEmit',
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '--noEmit',
      '--incremental',
      '--tsBuildInfoFile',
      join(cache, 'tsc.tsbuildinfo'),
    ],
    true,
  ),
  run('lint', bin('biome'), ['check', '--error-on-warnings', '.'], true),
];
const suite = await run('vitest', bin('vitest'), ['run', ...process.argv.slice(2)], false);
const results = [build, ...(await Promise.all(side)), suite];
for (const r of results.slice(1, -1)) {
  if (r.out.trim()) process.stdout.write(`\n== ${r.label}\n${r.out}`);
}
console.log(
  `\n${results.map((r) => `${r.label} ${r.code === 0 ? 'ok' : `FAILED (exit ${r.code})`} in ${(r.ms / 1000).toFixed(1)} s`).join(' · ')}`,
);
process.exit(results.find((r) => r.code !== 0)?.code ?? 0);
