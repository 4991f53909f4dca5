// README.md's Quick start, typed as written into two shells in real terminals (tmux) at 80 and
// 40 columns, with nothing else set up: `sitebuilder` on the PATH, an empty configuration. The
// first command starts the emulator with a profile that points at it; the second chats with
// the site's agent from another terminal, with no token copied. When the emulator stops, the
// profile that was current before is current again. The two widths run side by side, each in a
// home of its own.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectFits } from '../helpers/screen.js';
import { atPrompt, newcomerHome, newcomerShells, typeLine } from '../helpers/newcomer-shell.js';
import { hasTmux } from '../helpers/tmux.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** The command lines of the Quick start's first block, comments dropped. */
function quickStart(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .filter((l) => l.startsWith('sitebuilder '))
    .map((l) => l.replace(/\s+#.*$/, ''));
}

/** A shell as a newcomer has it after `npm link`: sitebuilder on the PATH, no configuration yet. */
const shell = newcomerShells();
const type = typeLine;

describe.skipIf(!hasTmux).concurrent('the Quick start in README.md', () => {
  it('is two commands: the emulator with --setup, then a chat from another terminal', () => {
    const [emulator, chat] = quickStart();
    expect(emulator).toBe('sitebuilder emulator --setup');
    expect(chat).toMatch(/^sitebuilder chat site_bakery "[^"]+"$/);
  });

  for (const cols of [80, 40]) {
    it(`works as written at ${cols} columns, and fits the screen`, async () => {
      const [emulatorLine, chatLine] = quickStart();
      const { config, env: newcomer } = newcomerHome('sb-quick-start-');
      const env = {
        ...newcomer,
        // The emulator's runs at 20 times their pace; everything else as a newcomer has it.
        SITEBUILDER_EMULATOR_SPEED: '20',
      };

      const first = shell(env, cols);
      await type(first, emulatorLine);
      const banner = await first.waitFor(/Ctrl-C stops it/);
      expect(banner).toMatch(/Profile emulator points at it/);
      expect(banner).not.toContain('sbt_'); // nothing to copy, no token on the screen
      expectFits(banner, cols, { words: ['current'], commands: [chatLine] });
      const saved = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8'));
      expect(saved.currentProfile).toBe('emulator');
      expect(saved.profiles.emulator.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const second = shell(env, cols);
      await type(second, chatLine);
      // This machine has followed no run of the site yet: whether the agent waits for a reply
      // cannot be told, so the message is confirmed first (docs/real-service.md "What waits on a site").
      const asked = await second.waitFor(/Send your message\?/);
      expectFits(asked, cols);
      await second.send('Enter');
      // Keys typed during a run are not taken (src/io/keyguard.ts): the next line waits for the shell.
      await second.waitFor((s) => s.includes('credits') && atPrompt(s), 20_000);
      await type(second, 'echo "EXIT=$?"');
      const done = await second.waitFor(/EXIT=\d+/);
      expect(done).toContain('EXIT=0');
      expect(done).toMatch(/Done: \d+ files? changed/);
      await type(second, 'sitebuilder auth status');
      const status = (await second.waitFor(/Budget/)).slice(-1000).split('$ sitebuilder auth status').pop() ?? '';
      expect(status).toMatch(/Profile +emulator \(the current\s+profile\)/);
      expectFits(status, cols);
      expect(status).toContain(saved.profiles.emulator.baseUrl);

      await first.send('C-c');
      const stopped = await first.waitFor((s) =>
        s.replace(/\s+/g, ' ').includes('Profile default is the current profile again.'),
      );
      expectFits(stopped, cols, { commands: [chatLine] });
      expect(JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).currentProfile).toBeUndefined();
    });
  }
});
