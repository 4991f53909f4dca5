// The design card's packages, measured against what the code uses instead (docs/architecture.md
// "Dependencies"): ora against src/io/spinner.ts, conf against src/config/, cli-table3 against
// src/io/layout.ts. Each is installed, at the version named below, into a temporary directory
// outside the repository (npm needs the network once). The packages used (commander, chalk,
// enquirer) are weighed too: the cost of loading each. `npm run bench:packages`, or
// `/path/to/node bench/packages.mjs` on another Node (conf 16 needs Node 22). About a minute;
// ora's patching of process.stdout/stderr needs tmux (a real terminal), and is skipped without.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const PINNED = { ora: '9.4.1', conf: '16.0.0', 'cli-table3': '0.6.5' };
const ROOT = new URL('..', import.meta.url).pathname;
const node = process.execPath;
const tmp = mkdtempSync(join(tmpdir(), 'sitebuilder-packages-'));
const say = (label, value) =>
  console.log(`${label.padEnd(48)} ${typeof value === 'string' ? value : JSON.stringify(value)}`);
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each package in a directory of its own: its files, and how many packages it brings. */
function install(name) {
  const dir = join(tmp, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', `${name}@${PINNED[name]}`], {
    cwd: dir,
    stdio: 'ignore',
  });
  const parseable = execFileSync('npm', ['ls', '--all', '--parseable'], { cwd: dir, encoding: 'utf8' });
  const packages = parseable.trim().split('\n').length - 1;
  const bytes = Number(execFileSync('du', ['-sb', join(dir, 'node_modules')], { encoding: 'utf8' }).split('\t')[0]);
  say(`${name} ${PINNED[name]}: packages installed, bytes`, `${packages} packages, ${(bytes / 1e6).toFixed(2)} MB`);
  return dir;
}

/** ora on a terminal 0 columns wide, stopped after 200 ms: what it wrote in 10 s, and whether it stopped. */
async function oraColumns(dir, columns) {
  const probe = join(dir, 'zero-columns.mjs');
  writeFileSync(
    probe,
    `import { openSync, writeSync } from 'node:fs';
import readline from 'node:readline';
import ora from 'ora';
const out = openSync(process.argv[2], 'w');
const stream = {
  isTTY: true, columns: ${columns}, rows: 24,
  write(chunk, encoding, callback) {
    writeSync(out, typeof chunk === 'string' ? chunk : Buffer.from(chunk));
    (typeof encoding === 'function' ? encoding : callback)?.();
    return true;
  },
  cursorTo(x) { return readline.cursorTo(this, x); },
  moveCursor(dx, dy) { return readline.moveCursor(this, dx, dy); },
  clearLine(dir) { return readline.clearLine(this, dir); },
  on() { return this; }, once() { return this; }, off() { return this; }, removeListener() { return this; },
};
const spinner = ora({ stream, text: 'Publishing', isEnabled: true }).start();
setTimeout(() => { spinner.stop(); writeSync(2, 'stopped'); }, 200);
`,
  );
  const file = join(dir, `written-${columns}`);
  const child = spawn(node, [probe, file], { cwd: dir, env: { ...process.env, CI: '' } });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const started = Date.now();
  await new Promise((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const mb = (statSync(file).size / 1e6).toFixed(1);
  say(
    `ora, ${columns} columns, stop() after 200 ms`,
    `${stderr === 'stopped' ? 'stopped' : 'never stopped'}: ${mb} MB written in ${seconds} s`,
  );
}

/** ora given a stream of its own, with process.stdout and process.stderr terminals (tmux). */
async function oraPatching(dir) {
  if (spawnSync('sh', ['-c', 'command -v tmux']).status !== 0)
    return say('ora, process.stdout/stderr patched', 'skipped: no tmux');
  const probe = join(dir, 'patching.mjs');
  const out = join(dir, 'patching.json');
  writeFileSync(
    probe,
    `import { writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import ora from 'ora';
const own = Object.assign(new PassThrough(), { isTTY: true, columns: 80, rows: 24, cursorTo() {}, moveCursor() {}, clearLine() {} });
let written = 0;
own.on('data', (c) => (written += c.length));
const before = { stdout: process.stdout.write, stderr: process.stderr.write };
const spinner = ora({ stream: own, text: 'Working', isEnabled: true }).start();
const patched = { stdout: process.stdout.write !== before.stdout, stderr: process.stderr.write !== before.stderr };
await new Promise((r) => setTimeout(r, 50));
const seen = written;
process.stdout.write('a line of data\\n');
const forOneLine = written - seen;
spinner.stop();
const restored = process.stdout.write === before.stdout && process.stderr.write === before.stderr;
writeFileSync(${JSON.stringify(out)}, JSON.stringify({ tty: [process.stdout.isTTY, process.stderr.isTTY], patched, forOneLine, restored }));
`,
  );
  const session = `sitebuilder-packages-${process.pid}`;
  execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '100', '-y', '20', `${node} ${probe}; sleep 5`]);
  for (let i = 0; i < 100 && !existsSync(out); i++) await wait(100);
  spawnSync('tmux', ['kill-session', '-t', session]);
  const r = JSON.parse(readFileSync(out, 'utf8'));
  say(
    'ora with its own stream, stdout+stderr TTYs',
    `process.stdout.write replaced: ${r.patched.stdout}, process.stderr.write: ${r.patched.stderr}; one line printed on stdout made ora write ${r.forOneLine} bytes to its stream; restored at stop: ${r.restored}`,
  );
}

/** `n` processes at once, each writing its own key; how many writes were lost, per trial. */
async function lostWrites(label, n, trials, start, count) {
  const lost = [];
  for (let t = 0; t < trials; t++) {
    const dir = mkdtempSync(join(tmp, 'store-'));
    await Promise.all(Array.from({ length: n }, (_, i) => new Promise((resolve) => start(dir, i).on('exit', resolve))));
    lost.push(n - count(dir));
  }
  say(`${label}: of ${n} parallel writes, lost`, `${lost.join(', ')} (${trials} trials)`);
}

async function confWrites(dir) {
  const writer = join(dir, 'writer.mjs');
  writeFileSync(
    writer,
    "import Conf from 'conf';\nnew Conf({ projectName: 'probe', cwd: process.argv[2] }).set(process.argv[3], true);\n",
  );
  await lostWrites(
    `conf ${PINNED.conf}`,
    20,
    5,
    (store, i) => spawn(node, [writer, store, `k${i}`], { cwd: dir }),
    (store) => Object.keys(JSON.parse(readFileSync(join(store, 'config.json'), 'utf8'))).length,
  );
  const bin = join(ROOT, 'bin', 'sitebuilder.js');
  await lostWrites(
    'src/config/ (site use --profile pI)',
    20,
    5,
    (store, i) =>
      spawn(node, [bin, 'site', 'use', 'site_x', '--profile', `p${i}`], {
        env: { ...process.env, SITEBUILDER_CONFIG_DIR: join(store, 'config') },
      }),
    (store) => Object.keys(JSON.parse(readFileSync(join(store, 'config', 'config.json'), 'utf8')).profiles).length,
  );
}

/** The same rows laid out by layout.ts, and by cli-table3 without borders in the widths layout.ts chose. */
async function tables(dir) {
  const script = join(dir, 'tables.mjs');
  await build({
    stdin: {
      contents: `
import Table from 'cli-table3';
import { columnWidths, layoutTable } from ${JSON.stringify(join(ROOT, 'src/io/layout.ts'))};
import { displayWidth } from ${JSON.stringify(join(ROOT, 'src/io/width.ts'))};
const columns = [{ header: 'ID', free: false }, { header: 'NAME', free: true }, { header: 'WORKSPACE', free: false }, { header: 'UPDATED', free: false }];
const rows = [
  ['site_bakery', 'Sunrise Bakery', 'ws_demo', '2026-10-28 13:11'],
  ['0123456789abcdef01234567', '\u6771\u4eac\u30d9\u30fc\u30ab\u30ea\u30fc\u30fb\u672c\u5e97\u306e\u30a6\u30a7\u30d6\u30b5\u30a4\u30c8', 'ws_demo', '2026-10-28 13:11'],
  ['site_family', 'Family recipes \u{1F370} and more', 'ws_free', '2026-10-27 09:02'],
  ['site_cafe', 'Cafe\u0301 de la Gare, Lyon', 'ws_free', '2026-10-26 18:40'],
];
const chars = Object.fromEntries(['top','top-mid','top-left','top-right','bottom','bottom-mid','bottom-left','bottom-right','left','left-mid','mid','mid-mid','right','right-mid'].map((k) => [k, '']));
for (const width of [100, 80, 72, 66, 60, 40]) {
  const widths = columnWidths(columns, rows, width);
  const ours = layoutTable(columns, rows, width).lines;
  const stats = (lines) => ({
    widest: Math.max(...lines.map(displayWidth)),
    trailingBlanks: lines.filter((l) => /\\s$/.test(l)).length,
    brokenCharacters: lines.filter((l) => /[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]/.test(l)).length,
  });
  let theirs = 'no layout: layout.ts prints each row as a block of KEY  value lines here';
  if (widths) {
    const t = new Table({ head: columns.map((c) => c.header), chars: { ...chars, middle: '  ' }, style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true }, colWidths: widths });
    t.push(...rows);
    theirs = JSON.stringify(stats(t.toString().split('\\n')));
  }
  console.log(JSON.stringify({ width, layout: widths ? 'table' : 'blocks', ours: stats(ours), cliTable3: theirs }));
}
`,
      resolveDir: dir,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: script,
    logLevel: 'error',
  });
  for (const line of execFileSync(node, [script], { encoding: 'utf8' }).trim().split('\n')) {
    const r = JSON.parse(line);
    say(`table at ${r.width} columns (${r.layout}): ours / cli-table3`, `${JSON.stringify(r.ours)} / ${r.cliTable3}`);
  }
}

/** The cost of require()-ing each bundle in a fresh process: wall and CPU ms, medians of 31 alternating rounds. */
async function loadTimes(dir) {
  const bundles = { 'an empty file': join(dir, 'empty.cjs') };
  writeFileSync(bundles['an empty file'], '');
  bundles['cli-table3'] = join(dir, 'cli-table3.cjs');
  await build({
    stdin: { contents: "module.exports = require('cli-table3');", resolveDir: dir },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: bundles['cli-table3'],
    logLevel: 'error',
  });
  // The packages the code does use, from the repository's node_modules, as bundled alone
  // (commander here still requires node:child_process at load; the build makes that lazy).
  for (const name of ['commander', 'chalk', 'enquirer']) {
    bundles[name] = join(dir, `${name}.cjs`);
    await build({
      stdin: { contents: `export * from '${name}';`, resolveDir: ROOT },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: bundles[name],
      logLevel: 'error',
    });
  }
  bundles['layout.ts + width.ts'] = join(dir, 'layout.cjs');
  await build({
    entryPoints: [join(ROOT, 'src/io/layout.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: bundles['layout.ts + width.ts'],
    logLevel: 'error',
  });
  const probe = (file) =>
    JSON.parse(
      execFileSync(node, [
        '-e',
        `const c=process.cpuUsage(),t=performance.now();require(${JSON.stringify(file)});const w=performance.now()-t,u=process.cpuUsage(c);process.stdout.write(JSON.stringify([w,(u.user+u.system)/1000]))`,
      ]),
    );
  const times = Object.fromEntries(Object.keys(bundles).map((k) => [k, { wall: [], cpu: [] }]));
  for (let round = 0; round < 31; round++)
    for (const [name, file] of Object.entries(bundles)) {
      const [wall, cpu] = probe(file);
      times[name].wall.push(wall);
      times[name].cpu.push(cpu);
    }
  for (const [name, file] of Object.entries(bundles))
    say(
      `require() ${name}`,
      `${statSync(file).size} bytes; wall ${median(times[name].wall).toFixed(2)} ms, CPU ${median(times[name].cpu).toFixed(2)} ms`,
    );
}

try {
  say('node', process.version);
  const ora = install('ora');
  const conf = install('conf');
  const table = install('cli-table3');
  await oraColumns(ora, 0);
  await oraColumns(ora, 80);
  await oraPatching(ora);
  await confWrites(conf);
  await tables(table);
  await loadTimes(table);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
