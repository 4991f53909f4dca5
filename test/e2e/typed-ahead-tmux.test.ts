// Text typed during a run of `sitebuilder chat`, in a real terminal (tmux, the built binary) at 80
// and 40 columns: it is acknowledged as it is typed (a row of the live block shows it, kept and
// not sent, and follows each key), said once in the scrollback with what happens to it, and
// shows at the prompt when the run ends, where Enter sends it. Nothing on the screen is wider
// than the terminal; the keys answer nothing they were not typed for. The widths run side by side,
// each with an emulator of its own (whose clock it moves).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { ownEmulators } from '../helpers/own-emulators.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { knowLatestRun } from '../commands/chat/helpers.js';

const BIN = new URL('../../bin/sitebuilder.js', import.meta.url).pathname;
const built = existsSync(new URL('../../dist/cli.js', import.meta.url));
const TYPED = 'add our opening hours to the footer please';
const sessions: TmuxSession[] = [];
const emulator = ownEmulators({ speed: 20 });

afterAll(() => {
  for (const s of sessions) s.kill();
});

/**
 * Lines of the transcript (wrapped rows joined) wider than the terminal: rows the terminal folded.
 * Not counted: one word wider than a row (an address to copy stays whole: src/io/width.ts), and
 * the line being typed at the prompt, which folds as it would in a shell.
 */
const tooWide = (screen: string, cols: number) =>
  screen
    .trimEnd()
    .split('\n')
    .filter((l) => [...l].length > cols && /\S\s+\S/.test(l.trim()) && !l.startsWith('? You ‣'));

describe.skipIf(!hasTmux || !built).concurrent('text typed during a run, in a real terminal', () => {
  for (const cols of [80, 40])
    it(`is shown as typed, kept and not sent, then waits at the prompt (${cols} columns)`, async () => {
      const emu = await emulator();
      const config = join(mkdtempSync(join(tmpdir(), 'sitebuilder-typed-')), 'config');
      await knowLatestRun(emu, config, 'site_bakery');
      const t = new TmuxSession(
        [process.execPath, BIN, 'chat', 'site_bakery'],
        {
          SITEBUILDER_BASE_URL: emu.baseUrl,
          SITEBUILDER_TOKEN: DEMO_TOKENS.full,
          SITEBUILDER_CONFIG_DIR: config,
          SITEBUILDER_CLOCK_SPEED: '20',
        },
        { cols, rows: 30 },
      );
      sessions.push(t);
      await t.waitFor(/\? You/, 20_000);
      // The run stalls 30 s at the wall clock's pace while the keys are typed.
      emu.control.setClock({ speed: 1 });
      await t.send('Add an about page and a contact page, in blue #stall:30', 'Enter');
      await waitFor(() => emu.control.log({ method: 'send_message' }).length > 0, { what: 'the message sent' });
      emu.control.setClock({ advanceMs: 1_000 });
      await t.waitFor(/Reading your message/, 20_000);
      await t.send('-l', TYPED);
      // A row of the live block shows it as typed; the scrollback says once what happens to it.
      // (Its end, after …, where the whole does not fit.)
      const live =
        cols >= 60
          ? /^Kept for your next message \(not sent\): “…?[a-z ]+ to the footer please”$/m
          : /^Kept, not sent: “…[a-z ]+please”$/m;
      const shown = await t.waitFor(live, 20_000);
      expect(shown.replace(/\n/g, ' ').replace(/ +/g, ' ')).toContain(
        'What you type now is kept, not sent: it shows at the prompt when the run ends, for you to edit and send with Enter.',
      );
      // It follows every key: seven characters erased, the row says so.
      await t.send('BSpace', 'BSpace', 'BSpace', 'BSpace', 'BSpace', 'BSpace', 'BSpace');
      const erased = await t.waitFor(
        cols >= 60 ? /\(not sent\): “add our opening hours to the footer”$/m : /^Kept, not sent: “…[a-z ]+footer”$/m,
      );
      expect(tooWide(erased, cols)).toEqual([]);
      expect(emu.control.log({ method: 'send_message' })).toHaveLength(1);
      // The run goes on to its end; the text waits at the prompt, as typed, not sent.
      emu.control.setClock({ speed: 20, advanceMs: 30_000 });
      const ended = await t.waitFor(/Done in[\s\S]*\? You ‣ add our opening hours to the footer\s*$/, 30_000);
      expect(ended).not.toMatch(/^Kept/m);
      expect(tooWide(ended, cols)).toEqual([]);
      expect(emu.control.log({ method: 'send_message' })).toHaveLength(1);
      // Enter sends it, as the next message.
      await t.send('Enter');
      await waitFor(() => emu.control.log({ method: 'send_message' }).length === 2, { what: 'the kept text sent' });
      expect(emu.control.log({ method: 'send_message' })[1]?.args).toMatchObject({
        prompt: 'add our opening hours to the footer',
      });
      await t.waitFor(/Done in[\s\S]*Done in[\s\S]*\? You/, 30_000);
      await t.send('/exit', 'Enter');
      expect(await t.waitFor(/EXIT=\d+/, 20_000)).toMatch(/EXIT=0/);
    }, 90_000);
});
