// The demo: start an emulator in this process, then run CLI commands through cli.run() with
// SITEBUILDER_BASE_URL and SITEBUILDER_TOKEN pointing at it, printing each command first.
import type { Context } from '../../context.js';
import type { Cli } from '../../core/define.js';
import { startEmulator } from '../../emulator/index.js';

/** The tour, in order; it ends by opening `sitebuilder chat` on a demo site (runDemo). */
export const TOUR: ReadonlyArray<{ note: string; argv: string[] }> = [
  { note: 'The workspaces the demo token reaches:', argv: ['workspace', 'list'] },
  { note: 'The sites of the Demo Studio workspace:', argv: ['site', 'list', '--workspace', 'ws_demo'] },
];

export async function runDemo(ctx: Context, cli: Cli): Promise<number> {
  const { io } = ctx;
  // At the pace of the CLI's clock: real time, or SITEBUILDER_CLOCK_SPEED's (docs/emulator.md).
  const running = await startEmulator({ speed: ctx.clock.speed ?? 1 });
  try {
    const env = {
      ...ctx.env,
      SITEBUILDER_BASE_URL: running.baseUrl,
      SITEBUILDER_TOKEN: running.token,
      SITEBUILDER_SITE: 'site_bakery',
    };
    io.errLine(`An emulator of the service is running in this process on ${running.baseUrl}, with demo data.`);
    for (const step of TOUR) {
      io.errLine('');
      io.errLine(step.note);
      io.errLine(`$ sitebuilder ${step.argv.join(' ')}`);
      const code = await cli.run(step.argv, { io, env, clock: ctx.clock, prompter: ctx.prompter, signal: ctx.signal });
      if (code !== 0) {
        io.errLine(`(exited with ${code})`);
        return code;
      }
    }
    // The heart of it: a conversation with the agent of a demo site (one message when no prompt is possible).
    const chat = ctx.prompter.canPrompt()
      ? ['chat', 'site_bakery']
      : ['chat', 'site_bakery', 'Add an about page with our story and a contact page'];
    io.errLine('');
    io.errLine(
      ctx.prompter.canPrompt()
        ? 'Now talk to the agent of Sunrise Bakery (/exit or Ctrl-D leaves; try a short message, /plan, or #ask #fail #stall #long):'
        : 'A message to the agent of Sunrise Bakery, followed live:',
    );
    io.errLine(`$ sitebuilder ${chat.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}`);
    const chatCode = await cli.run(chat, {
      io,
      env,
      clock: ctx.clock,
      prompter: ctx.prompter,
      signal: ctx.signal,
      interrupts: ctx.interrupts,
    });
    if (chatCode !== 0) io.errLine(`(exited with ${chatCode})`);
    io.errLine('');
    io.errLine('Next, the emulator on its own with a profile that points at it (Ctrl-C stops it):');
    io.errLine('  sitebuilder emulator --setup');
    io.errLine('A script against a fresh emulator:');
    io.errLine('  sitebuilder emulator -- ./my-script.sh');
    io.errLine('Every command:');
    io.errLine('  sitebuilder --help');
    return 0;
  } finally {
    await running.close();
  }
}
