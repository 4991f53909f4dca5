// Every command sitebuilder prints, pasted exactly into bash, does what its sentence says or
// sends nothing and exits 2 naming what to fill in (issue: "a printed command is either complete
// or inert"). Journeys run the built binary against an emulator of this process; every command
// they print is collected (a `backquoted` span, or a `sitebuilder …` that starts a line or
// follows a colon, to its end) and pasted into bash at once, as a person would, with the
// emulator's request log read around it (test/helpers/pasted-commands.ts). Here, chat to one
// site: a timeout, a question and the refusals that name its replies, a plan, the queue, and the
// words that name a site; printed-commands-others.test.ts holds the rest. The file is split, and
// its journeys run side by side, each test on an emulator of its own, so that the wait on one
// run does not hold up the others.
import { describe, expect, it } from 'vitest';
import { ownEmulators } from '../helpers/own-emulators.js';
import { pastingShell } from '../helpers/pasted-commands.js';

const SPEED = 60;
const emulator = ownEmulators({ speed: SPEED });

/** A prompt against an emulator of the test's own. */
async function fresh() {
  const emu = await emulator();
  return pastingShell(() => emu, SPEED);
}

describe.concurrent('every printed command of chat to one site, pasted into bash as printed, works or sends nothing and exits 2 naming what to fill in', () => {
  it('a run followed past --timeout, and a plan', async () => {
    const shell = await fresh();
    // --timeout: re-attach (which follows the run to its end), and cancel (it has ended by then).
    await shell.journey("sitebuilder chat site_docs 'Add every page you can think of #long' --timeout 5s --yes");
    // A plan: --approve, --revise '…'.
    await shell.journey("sitebuilder chat site_docs --plan 'Add a gallery page with photos of the team' --yes");
    shell.expectPrinted(
      [
        /^sitebuilder job watch site_docs \S+$/,
        /^sitebuilder job cancel site_docs --job \S+$/,
        /^sitebuilder chat site_docs --approve --job \S+$/,
        /^sitebuilder chat site_docs --revise '…' --job \S+$/,
      ],
      3,
    );
  });

  it('a question, and the refusals that name its replies; words that name no site', async () => {
    const shell = await fresh();
    // A question: one --choose per suggested answer, then --answer '…'. (--yes: a service whose
    // history names no run with a time cannot tell what waits on a site this machine has not
    // written to yet; the first message there goes anyway.) While it waits, a message is refused
    // with a sentence that names the replies; so are --choose out of range, and a placeholder
    // for it: one whole command per suggested answer. The same command printed again is pasted
    // once (test/helpers/pasted-commands.ts).
    const asked = await shell.journey(
      "sitebuilder chat site_bakery 'make it nice' --yes; sitebuilder chat site_bakery 'Add a contact page'; sitebuilder chat site_bakery --choose 9; sitebuilder chat site_bakery --choose N",
    );
    for (const n of [1, 2, 3, 4])
      expect(
        asked.printed.filter((c) => new RegExp(`^sitebuilder chat site_bakery --choose ${n} --job \\S+$`).test(c)),
        asked.out,
      ).toHaveLength(4);
    expect(
      asked.printed.filter((c) => /^sitebuilder chat site_bakery --answer '…' --job \S+$/.test(c)),
      asked.out,
    ).toHaveLength(2);
    expect(new Set(asked.printed).size, asked.out).toBe(5);
    // A message without a site; no terminal for a conversation; words that are no sites.
    await shell.journey("sitebuilder chat 'Add a contact page'; sitebuilder chat site_bakery");
    await shell.journey("sitebuilder chat site_blog hello there 'my friend'");
    shell.expectPrinted(
      [
        /^sitebuilder chat site_bakery --choose 2 --job \S+$/,
        /^sitebuilder chat site_bakery --choose 4 --job \S+$/,
        /^sitebuilder chat site_bakery --answer '…' --job \S+$/,
        /^sitebuilder chat SITE 'Add a contact page'$/,
        /^sitebuilder chat site_blog 'hello there my friend'$/,
      ],
      20,
    );
  });

  it('replies with nothing waiting, the queue, and a lone argument that is no site', async () => {
    const shell = await fresh();
    // Reply flags with nothing waiting.
    await shell.journey('sitebuilder chat site_portfolio --approve; sitebuilder chat site_portfolio --answer Yes');
    // --no-follow, then a message queued behind it, then a cancel that stops the queue. (The run
    // stalls for long, so that the message waits in the queue whatever the load: a run that only
    // had many steps could end, and start the next, before the cancel.)
    await shell.journey(
      "sitebuilder chat site_portfolio 'Add every page you can think of #long #stall:3600' --no-follow --yes && sitebuilder chat site_portfolio 'Then a footer please'; sitebuilder job cancel site_portfolio",
    );
    // A lone argument: not a site (a default site is set).
    await shell.journey('sitebuilder chat site_bakry', { SITEBUILDER_SITE: 'site_portfolio' });
    shell.expectPrinted(
      [
        /^sitebuilder job watch site_portfolio \S+$/,
        /^sitebuilder queue resume site_portfolio$/,
        /^sitebuilder chat site_portfolio site_bakry$/,
      ],
      3,
    );
  });
});
