// Draws the README's pictures from real runs: `npm run docs:images` writes docs/images/chat.svg
// and docs/images/restore.svg. Each scene starts the emulator (`sitebuilder emulator`, on
// 127.0.0.1) and runs the real CLI in a tmux terminal of 80 columns, in a temporary home,
// configuration and XDG directories; it types and presses keys as a person would, waits for
// text on the screen (with a deadline), and takes the screen with `tmux capture-pane -e` at
// chosen moments. scripts/ansi-svg.ts draws those screens. The calendar is fixed
// (scripts/docs-images-clock.mjs), the ids are the emulator's; only durations move between runs.
// test/scripts/ansi-svg.test.ts checks the committed pictures.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const COLS = 80;
const CALENDAR = Date.parse('2026-12-01T09:00:00Z');
const CLOCK = join(root, 'scripts/docs-images-clock.mjs');
const BIN = join(root, 'bin/sitebuilder.js');

/**
 * The keys that answer each kind of prompt, in one place. `yes` answers a yes/no confirmation:
 * `confirm()` below presses Enter after it too when the prompt waits for one.
 */
const KEYS = {
  yes: ['y'],
  enter: ['Enter'],
  pickFirst: ['Enter'],
};

/** Each scene: the terminal's height, and what it types and when it takes the screen. */
const SCENES = {
  chat: { rows: 60, run: chatScene },
  restore: { rows: 44, run: restoreScene },
};

async function chatScene(t) {
  t.type('sitebuilder chat site_bakery');
  await t.waitFor((s) => /^\? You ‣/m.test(s), 'the conversation prompt');
  t.type('/plan');
  await t.waitFor((s) => /^\? You \(plan mode\) ‣/m.test(s), 'plan mode');
  t.type('Make it blue, and add an about page, a team page and a contact page');
  // A fresh machine has followed no run of the site, so its first message is confirmed first
  // (docs/real-service.md "What waits on a site"); a person answers yes, on camera.
  await t.waitFor((s) => /^\? Send it\?/m.test(s), 'the first message’s confirmation');
  await confirm(t, 'Send it?');
  const plan = await t.waitFor((s) => /^\? Build this plan\?/m.test(s), 'the plan to approve');
  t.keys(...KEYS.pickFirst); // Approve and build
  const live = await t.waitFor(
    (s) => /^Tasks \d+\/\d+$/m.test(s) && /^ {2}✓ /m.test(s) && /^ {2}▸ /m.test(s) && /^[⠋-⣿] .+\d+s/m.test(lastRow(s)),
    'the live block: a task done, one going on, the spinner',
  );
  const end = await t.waitFor((s) => /^✓ Done in .*\n\? You/m.test(s), 'the end of the run and the next prompt');
  return [
    { title: 'sitebuilder chat in plan mode: the agent’s Markdown plan, rendered as it streamed', screen: plan },
    {
      title: 'the plan approved, the agent at work (the live block at the bottom)',
      screen: live,
      from: /^✔ Build this plan\?/,
    },
    { title: '… and its end', screen: end, from: /^Building the approved plan\./ },
  ];
}

async function restoreScene(t) {
  t.type('sitebuilder storage-restore site_bakery --backup sbk_000002 --mode full');
  await t.waitFor((s) => /^\? Start the restore\?/m.test(s), 'the plan and its question');
  await confirm(t, 'Start the restore?');
  const end = await t.waitFor((s) => /restored files are live now[\s\S]*^\$ ?$/m.test(s), 'the restore completed');
  return [{ title: 'sitebuilder storage-restore: the plan, the confirmation, the result', screen: end }];
}

/** Answers yes; presses Enter too if the prompt still waits (a confirmation that needs Enter). */
async function confirm(t, question) {
  const q = question.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const answered = new RegExp(`^✔ ${q}`, 'm');
  t.keys(...KEYS.yes);
  const s = await t.waitFor(
    (s) => answered.test(s) || new RegExp(`^\\? ${q}.*\\by *$`, 'm').test(s),
    `"${question}" answered or typed`,
  );
  if (!answered.test(plain(s))) t.keys(...KEYS.enter);
  await t.waitFor((s) => answered.test(s), `"${question}" answered`);
}

const plain = (screen) => screen.replace(/\u001b\[[0-9;:]*m/g, '');
const lastRow = (s) => s.trimEnd().split('\n').at(-1) ?? '';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A home, configuration and XDG directories of its own, and a `sitebuilder` on PATH that runs this checkout. */
function sandbox() {
  const dir = mkdtempSync(join(tmpdir(), 'sb-docs-images-'));
  const sub = (name) => {
    const path = join(dir, name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  const bin = sub('bin');
  writeFileSync(join(bin, 'sitebuilder'), `#!/bin/sh\nexec '${process.execPath}' --import '${CLOCK}' '${BIN}' "$@"\n`);
  chmodSync(join(bin, 'sitebuilder'), 0o755);
  const env = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: sub('home'),
    XDG_CONFIG_HOME: sub('xdg/config'),
    XDG_CACHE_HOME: sub('xdg/cache'),
    XDG_DATA_HOME: sub('xdg/data'),
    XDG_STATE_HOME: sub('xdg/state'),
    SITEBUILDER_CONFIG_DIR: join(dir, 'config'),
    LANG: 'C.UTF-8',
    DOCS_IMAGES_TIME_SHIFT_MS: String(CALENDAR - Date.now()),
  };
  return { env, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `sitebuilder emulator --json`: its first line says where it listens and its full-scope token. */
async function startEmulator(env) {
  const child = spawn(
    process.execPath,
    ['--import', CLOCK, BIN, 'emulator', '--json', '--speed', '1', '--shapes', 'default'],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`The emulator exited (${code}) before it said where it listens.`)));
  });
  const { baseUrl, tokens } = JSON.parse(first);
  const exited = new Promise((r) => child.once('exit', r));
  return {
    env: { SITEBUILDER_BASE_URL: baseUrl, SITEBUILDER_TOKEN: tokens[0].token },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A bash in a tmux terminal of COLS × rows on a socket of its own (never the user's tmux server). */
function terminal(env, rows) {
  const socket = `sb-docs-images-${process.pid}`;
  const tmux = (...args) =>
    execFileSync('tmux', ['-u', '-L', socket, '-f', '/dev/null', ...args], { env, encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'docs', '-x', String(COLS), '-y', String(rows), 'bash', '--norc', '--noprofile');
  return {
    type(text) {
      tmux('send-keys', '-t', 'docs', '-l', text);
      tmux('send-keys', '-t', 'docs', 'Enter');
    },
    keys: (...keys) => tmux('send-keys', '-t', 'docs', ...keys),
    /** Waits until test(screen without colour) holds; returns the screen with its colours. */
    async waitFor(test, what, deadlineMs = 60_000) {
      const deadline = Date.now() + deadlineMs;
      for (;;) {
        const screen = tmux('capture-pane', '-p', '-e', '-t', 'docs');
        if (test(plain(screen))) return screen;
        if (Date.now() > deadline)
          throw new Error(`Waited ${deadlineMs / 1000} s for ${what}; the screen:\n${plain(screen)}`);
        await sleep(50);
      }
    },
    close: () => tmux('kill-server'),
  };
}

async function loadConverter() {
  const { outputFiles } = await build({
    entryPoints: [join(root, 'scripts/ansi-svg.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'error',
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);
}

/** Takes every scene, then writes the pictures (none when a scene fails). */
async function main() {
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
  const { screensToSvg } = await loadConverter();
  const pictures = {};
  for (const [name, scene] of Object.entries(SCENES)) {
    const box = sandbox();
    const emulator = await startEmulator(box.env);
    const t = terminal({ ...box.env, ...emulator.env, PS1: '$ ' }, scene.rows);
    try {
      await t.waitFor((s) => /^\$/m.test(s), 'the shell prompt');
      pictures[name] = screensToSvg(await scene.run(t), COLS);
      console.log(`${name}: taken`);
    } finally {
      t.close();
      await emulator.stop();
      box.remove();
    }
  }
  mkdirSync(join(root, 'docs/images'), { recursive: true });
  for (const [name, svg] of Object.entries(pictures)) writeFileSync(join(root, `docs/images/${name}.svg`), svg);
  console.log(`docs/images/: ${Object.keys(pictures).join(', ')} written.`);
}

main().catch((err) => {
  console.error(`docs:images: ${err.message}`);
  process.exitCode = 1;
});
