// A very long text in a real terminal (tmux, the built binary): a service that sends a 10 MB
// plan in one answer, then a 1 MB line without a space. The plan renders a part at a time, so
// Ctrl-C detaches while it renders (exit 130, a line saying what was not shown), long before
// the whole would have printed; the line prints whole, cut into rows of the terminal's width.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMethodServer, type MethodServer } from '../helpers/method-server.js';
import { envelope } from '../helpers/script-server.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const sessions: TmuxSession[] = [];
const servers: MethodServer[] = [];

afterAll(async () => {
  for (const s of sessions) s.kill();
  await Promise.all(servers.map((s) => s.close()));
});

const STEP = '1. **Create `about.html`**: the About page\n   - a hero with the *tagline*\n   - a link in the nav\n';

/** A service whose run says a few words, then sends `text` in one answer, then goes on running. */
async function service(text: string): Promise<MethodServer> {
  const server = await startMethodServer();
  servers.push(server);
  let reads = 0;
  server.answers.get_job = () => {
    reads++;
    const events =
      reads === 1
        ? [{ event: 'text', data: { text: 'Working on it.\n' } }]
        : reads === 2
          ? [{ event: 'text', data: { text } }]
          : [];
    return { body: envelope({ jobId: 'job_1', state: 'running', events, cursor: reads === 1 ? 1 : 2 }) };
  };
  return server;
}

function watch(server: MethodServer, cols: number): TmuxSession {
  const s = new TmuxSession(
    [process.execPath, BIN, 'job', 'watch', 'site_bakery', 'job_1'],
    {
      SITEBUILDER_BASE_URL: server.baseUrl,
      SITEBUILDER_TOKEN: 'sbt_test_token_0123456789',
      SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sitebuilder-md-long-')), 'config'),
      SITEBUILDER_CLOCK_SPEED: '10',
    },
    { cols, rows: 30 },
  );
  sessions.push(s);
  return s;
}

describe.skipIf(!hasTmux)('a very long text in a real terminal', () => {
  it('Ctrl-C detaches while a 10 MB plan renders; a 1 MB line prints whole, in rows of the width', async () => {
    const plan = await service(`## Here is my plan\n\n${STEP.repeat(Math.ceil(10_000_000 / STEP.length))}`);
    const line = await service(`${'x'.repeat(1_000_000)}\n`);
    const t = watch(plan, 80);
    const l = watch(line, 40);
    // The plan's first rows show (rendered), then Ctrl-C.
    await t.waitFor(/^1\. Create about\.html: the About page$/m, 30_000);
    t.send('C-c');
    const end = await t.waitFor(/EXIT=\d+/, 15_000);
    expect(end).toMatch(/EXIT=130/);
    expect(end).toMatch(/^\(Interrupted: the rest of the agent’s text is not shown\.\)$/m);
    // The line: rows of 39 x's, then the run goes on; Ctrl-C detaches.
    const rows = await l.waitFor((s) => s.split('\n').filter((r) => /^x{39}$/.test(r)).length >= 20, 30_000);
    expect(rows).not.toMatch(/x{40}/);
    l.send('C-c');
    expect(await l.waitFor(/EXIT=\d+/, 15_000)).toMatch(/EXIT=130/);
  }, 90_000);
});
