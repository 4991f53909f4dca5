// The fuzz suites' shape: for each journey, its run against the default shapes (once), then for
// each seed its run against `random:SEED` and one test per invariant. A failing test names the
// seed and the one command that replays it. A case listed in `awaits` is expected to fail for
// the reason given (vitest's it.fails): the suite stays green until the CLI is fixed, then the
// case fails ("expected to fail") and the entry is removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  check,
  closeRecord,
  INVARIANTS,
  type Invariant,
  type JourneyRecord,
  runJourney,
  templates,
  type Violations,
} from './invariants.js';
import type { Journey } from './journeys.js';

/** The seeds of `npm test`; SITEBUILDER_FUZZ_SEEDS=7,8 runs others (their known failures are not listed). */
export function seeds(defaults: number[]): number[] {
  const asked = process.env.SITEBUILDER_FUZZ_SEEDS;
  if (!asked) return defaults;
  return asked.split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n) || n < 0 || n > 4_294_967_295) throw new Error(`SITEBUILDER_FUZZ_SEEDS: ${s} is no seed.`);
    return n;
  });
}

/** `journey name | seed | invariant` → why it fails today. */
export type Awaits = Record<string, string>;
export const caseKey = (journey: string, seed: number | 'default', invariant: Invariant) =>
  `${journey} | ${seed} | ${invariant}`;

function replay(file: string, journey: string, seed: number): string {
  return (
    `random:${seed} (replay: SITEBUILDER_FUZZ_SEEDS=${seed} npx vitest run ${file} -t ${JSON.stringify(journey)}; ` +
    `or by hand: sitebuilder emulator --shapes random:${seed})`
  );
}

export function fuzzSuite(file: string, journeys: Journey[], seedList: number[], awaits: Awaits): void {
  for (const journey of journeys) {
    describe(journey.name, () => {
      let def: JourneyRecord;
      beforeAll(async () => {
        def = await runJourney(journey, 'default', 'all');
      });
      afterAll(() => closeRecord(def));
      const why = awaits[caseKey(journey.name, 'default', 'templates')];
      (why ? it.fails : it)(`templates against the default shapes${why ? ` (fails today: ${why})` : ''}`, async () => {
        expect(await templates(def), `${file}: ${journey.name}`).toEqual([]);
      });
      for (const seed of seedList) {
        describe(`random:${seed}`, () => {
          let found: Violations;
          let rnd: JourneyRecord;
          beforeAll(async () => {
            rnd = await runJourney(journey, `random:${seed}`, 'printed');
            found = await check(journey, def, rnd);
          }, 60_000);
          afterAll(() => closeRecord(rnd));
          for (const invariant of INVARIANTS) {
            const why = awaits[caseKey(journey.name, seed, invariant)];
            (why ? it.fails : it)(why ? `${invariant} (fails today: ${why})` : invariant, () => {
              expect(found[invariant], replay(file, journey.name, seed)).toEqual([]);
            });
          }
        });
      }
    });
  }
}
