// The pure parts of the batch forms (docs/scripting.md "Many sites at once"): the exit code of a
// batch by the documented order, what --fail-fast stops on, when a command line is a batch, and
// the sentence for sites named on the command line that the service does not know, and a site's
// row on a terminal of any width.
import { describe, expect, it } from 'vitest';
import { unknownSitesError } from '../../../src/commands/chat/known-sites.js';
import { isBatch } from '../../../src/commands/shared/fleet/options.js';
import { isFailure, SEVERITY, type SiteOutcome, worstExit } from '../../../src/commands/shared/fleet/outcome.js';
import { FleetReport } from '../../../src/commands/shared/fleet/report.js';
import { liveRow, summaryRows } from '../../../src/commands/shared/fleet/rows.js';
import { FakeClock } from '../../../src/clock.js';
import type { Context } from '../../../src/context.js';
import { createTestIO } from '../../../src/io/io.js';

describe('the exit code of a batch', () => {
  it('follows the documented order: 4 2 1 6 7 5 10 11 8 130, then 0', () => {
    expect(SEVERITY).toEqual([4, 2, 1, 6, 7, 5, 10, 11, 8, 130]);
    expect(worstExit([])).toBe(0);
    expect(worstExit([0, 0])).toBe(0);
    expect(worstExit([0, 8, 11, 10])).toBe(10);
    expect(worstExit([8, 11])).toBe(11);
    expect(worstExit([10, 7, 0])).toBe(7);
    expect(worstExit([7, 6, 1])).toBe(1);
    expect(worstExit([130, 8])).toBe(8);
    expect(worstExit([1, 4, 2])).toBe(4);
    // A code outside the order still outranks success.
    expect(worstExit([0, 3])).toBe(3);
  });

  it('--fail-fast stops on failures, not on what waits for a reply or is still pending', () => {
    expect([1, 2, 4, 6, 7].every(isFailure)).toBe(true);
    expect([0, 5, 8, 10, 11, 130].some(isFailure)).toBe(false);
  });
});

describe('a batch command line', () => {
  it('is several sites, -, or --workspace with --all-sites', () => {
    expect(isBatch(['s1'], {})).toBe(false);
    expect(isBatch([], {})).toBe(false);
    expect(isBatch(['s1', 's2'], {})).toBe(true);
    expect(isBatch(['-'], {})).toBe(true);
    expect(isBatch([], { allSites: true })).toBe(true);
    expect(isBatch([], { workspace: 'ws_1' })).toBe(true);
  });
});

describe('sites named on the command line that the service does not know', () => {
  const say = (args: string[], unknown: string[], message?: string) =>
    unknownSitesError(args, new Set(unknown), message).message;

  it('are the words of an unquoted message when they come last: the quoted form is shown', () => {
    expect(say(['s_1', 'hello', 'there'], ['hello', 'there'], 'friend')).toBe(
      `No site has the id hello or there, so nothing was sent; if "hello there friend" is the message, quote it: sitebuilder chat s_1 'hello there friend'`,
    );
    expect(say(['s_1', 's_2', 'a', 'b', 'c'], ['a', 'b', 'c'], "it's")).toBe(
      `No site has the id a, b or c, so nothing was sent; if "a b c it's" is the message, quote it: sitebuilder chat s_1 s_2 'a b c it'\\''s'`,
    );
    // No site known at all: the site goes first.
    expect(say(['hello', 'there'], ['hello', 'there'], 'friend')).toMatch(
      /quote it: sitebuilder chat SITE 'hello there friend'$/,
    );
    // A long message is not repeated whole.
    const long = say(['s_1', 'Please'], ['Please'], 'x'.repeat(80));
    expect(long).toBe(
      "No site has the id Please, so nothing was sent; if the words from Please on are the message, quote it: sitebuilder chat s_1 '…'",
    );
  });

  it('are wrong ids otherwise: before a known site, or with --message-file', () => {
    const check = 'so nothing was sent; check the ids (`sitebuilder site list` shows the sites this token reaches).';
    expect(say(['s_typo', 's_2'], ['s_typo'], 'Update the footer')).toBe(`No site has the id s_typo, ${check}`);
    expect(say(['s_typo', 's_2', 'hello'], ['s_typo', 'hello'], 'friend')).toBe(
      `No site has the id s_typo or hello, ${check}`,
    );
    expect(say(['s_1', 's_nope'], ['s_nope'])).toBe(`No site has the id s_nope, ${check}`);
  });

  it('are echoed without control or bidi characters', () => {
    const text = say(['s_1', 'he\u202ello'], ['he\u202ello'], 'x\u001b[2J');
    expect(text).not.toMatch(/[\u202e\u001b]/);
  });
});

describe("a site's row on a terminal", () => {
  const LONG = '665f1c2afbae041b0200000c';
  const rowsAt = (cols: number, out: Partial<SiteOutcome>) => {
    const io = createTestIO({ tty: true, columns: cols, colorLevel: 0 });
    const ctx = { io, clock: new FakeClock() } as unknown as Context;
    const report = new FleetReport(
      ctx,
      { title: 'Publishing', again: () => 'sitebuilder publish -', total: 1, startedAt: 0 },
      [LONG],
    );
    report.end({ site: LONG, outcome: 'succeeded', exitCode: 0, ref: '', elapsedMs: 262_000, ...out } as SiteOutcome);
    return io.stdoutText().trimEnd().split('\n');
  };

  it('is one padded line where it fits', () => {
    expect(rowsAt(80, { ref: 'job_000001' })).toEqual([`✓ ${LONG}  succeeded   4m22s  job_000001`]);
  });

  it('puts the run on its own line, then the words, where the line is narrower: nothing wider than the terminal, nothing cut', () => {
    expect(rowsAt(50, { ref: 'job_000001' })).toEqual([`✓ ${LONG}  succeeded   4m22s`, '    job_000001']);
    // A 24-character id at 40 columns (the other shape of the service): the elapsed time goes on.
    const rows = rowsAt(40, { ref: 'job_000001' });
    expect(rows).toEqual([`✓ ${LONG} succeeded`, '    4m22s', '    job_000001']);
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(40);
    expect(rowsAt(40, {})).toEqual([`✓ ${LONG} succeeded`, '    4m22s']);
  });
});

describe('a site under way in the live block', () => {
  it('keeps its columns where they fit, and otherwise puts the state last, where the block cuts first', () => {
    expect(liveRow('site_a', 'publishing', '12s', 6, 80)).toBe('  site_a  publishing    12s');
    expect(liveRow('site_a', 'waiting for its turn', '12s', 6, 80)).toBe('  site_a  waiting for its turn 12s');
    const long = '665f1c2afbae041b0200000c';
    expect(liveRow(long, 'waiting for its turn', '4m22s', 24, 40)).toBe(`  ${long} 4m22s waiting for its turn`);
  });
});

describe("a batch's live summary", () => {
  const parts = ['3 failed', '3 live', '4 under way', '14 to start'];
  it('is one row where it fits', () => {
    expect(summaryRows('⠏ Publishing 24 sites:', parts, '11s', 80)).toEqual([
      '⠏ Publishing 24 sites: 3 failed · 3 live · 4 under way · 14 to start  11s',
    ]);
  });
  it('goes on to more rows at narrower widths, each count and the time whole', () => {
    const at60 = summaryRows('⠏ Publishing 24 sites:', parts, '11s', 60);
    expect(at60).toEqual(['⠏ Publishing 24 sites: 3 failed · 3 live · 4 under way', '  14 to start  11s']);
    const at40 = summaryRows('⠏ Chat with 24 sites:', parts, '1m02s', 40);
    expect(at40).toEqual(['⠏ Chat with 24 sites: 3 failed', '  3 live · 4 under way · 14 to start', '  1m02s']);
    for (const r of at60) expect(r.length).toBeLessThanOrEqual(57);
    for (const r of at40) expect(r.length).toBeLessThanOrEqual(37);
  });
});
