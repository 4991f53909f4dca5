// The pure parts of the batch forms (docs/scripting.md "Many sites at once"): the exit code of a
// batch by the documented order, what --fail-fast stops on, and when a command line is a batch.
import { describe, expect, it } from 'vitest';
import { isBatch } from '../../src/commands/fleet/options.js';
import { isFailure, SEVERITY, worstExit } from '../../src/commands/fleet/report.js';

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
