// The quick start's emulator stopped and started again (no --state), in real terminals (tmux) at
// 80 and 40 columns: a conversation with a site whose remembered run the new emulator never had
// says so in one line and asks before the first message (src/commands/chat/latest-run.ts); and a
// second `emulator --setup` while one runs is refused at once, naming it, with the first's
// profile left as it was (src/commands/emulator/setup.ts). The two widths run side by side, each
// in a home and a configuration of its own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectFits } from '../helpers/screen.js';
import { atPrompt, newcomerHome, newcomerShells, typeLine } from '../helpers/newcomer-shell.js';
import { hasTmux } from '../helpers/tmux.js';

const shell = newcomerShells();
const type = typeLine;
const flat = (screen: string) => screen.replace(/\s+/g, ' ');

/** What the screen shows after the last time `line` was typed. */
const after = (screen: string, line: string) => screen.split(`$ ${line}`).pop() ?? '';

describe.skipIf(!hasTmux).concurrent('the emulator started again, in a terminal', () => {
  for (const cols of [80, 40]) {
    it(`at ${cols} columns: the stale run said once, the first message asked; a second --setup refused`, async () => {
      const { config, env: newcomer } = newcomerHome('sb-restart-tty-');
      const env = {
        ...newcomer,
        SITEBUILDER_EMULATOR_SPEED: '20',
        // The CLI's waits (the 3 s poll floor) keep pace with the emulator's clock (docs/emulator.md).
        SITEBUILDER_CLOCK_SPEED: '20',
      };
      const first = shell(env, cols);
      await type(first, 'sitebuilder emulator --setup');
      await first.waitFor(/Ctrl-C stops it/);
      const second = shell(env, cols);
      // Left unanswered: Ctrl-C at the question's picker.
      const ask = 'sitebuilder chat site_recipes "Add a tiny page #ask" --yes';
      await type(second, ask);
      await second.waitFor(/Other \(type an answer\)/, 30_000);
      await second.send('C-c');
      await type(second, 'echo "EXIT=$?"');
      expect(await second.waitFor(/EXIT=\d+/)).not.toContain('EXIT=0');
      const asked = await second.screen();
      const jobId = /--job (job_\w+)/.exec(flat(after(asked, ask)))?.[1];
      expect(jobId, asked).toBeDefined();

      // A second --setup while the first runs: refused at once, nothing changed.
      const configText = readFileSync(join(config, 'config.json'), 'utf8');
      const address = JSON.parse(configText).profiles.emulator.baseUrl;
      const third = shell(env, cols);
      await type(third, 'sitebuilder emulator --setup');
      await type(third, 'echo "EXIT=$?"');
      const refused = await third.waitFor(/EXIT=\d+/);
      expect(refused).toContain('EXIT=2');
      expect(flat(refused)).toContain(`An emulator (pid `);
      expect(flat(refused)).toContain(`already runs at ${address} for profile emulator`);
      expectFits(refused, cols, { commands: ['sitebuilder emulator --setup --profile emulator-2'] });
      expect(readFileSync(join(config, 'config.json'), 'utf8')).toBe(configText);

      // Stopped and started again: the same port, none of its runs.
      await first.send('C-c');
      await first.waitFor((s) => flat(s).includes('is the current profile again.') && atPrompt(s));
      await type(first, 'sitebuilder emulator --setup');
      await first.waitFor((s) => (flat(s).match(/Ctrl-C stops it/g) ?? []).length === 2);
      expect(JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).profiles.emulator.baseUrl).toBe(address);

      await type(second, 'clear');
      await type(second, 'sitebuilder chat site_recipes');
      // Typed once the prompt shows, as a person types: keys typed before it never answer it.
      const opened = await second.waitFor(
        (s) => flat(s).includes('your first message is taken as the reply') && /^\? You ‣/m.test(s),
      );
      expect(flat(opened)).toContain(`warning: Run ${jobId}, remembered here, is not on the service at ${address}`);
      expect(flat(opened)).not.toContain('No job has the id');
      expectFits(opened, cols);
      await second.send('-l', 'Add a menu page please');
      await second.send('Enter');
      const confirm = await second.waitFor(/Send it\?/);
      expectFits(confirm, cols);
      await second.send('-l', 'n');
      await second.send('Enter');
      await second.waitFor((s) => /You/.test(s.split('Send it?').pop() ?? ''));
      await second.send('-l', '/exit');
      await second.send('Enter');
      await type(second, 'echo "EXIT=$?"');
      expect(await second.waitFor(/EXIT=\d+/)).toMatch(/EXIT=0/);
      await first.send('C-c');
      await first.waitFor((s) => (flat(s).match(/is the current profile again\./g) ?? []).length === 2);
    }, 120_000);
  }
});
