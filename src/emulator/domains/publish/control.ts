// Control routes of the publish domain (under /_emulator/):
//   POST   sites/:siteId/publish-failure {"message"?}  the next publish of the site fails
//   DELETE sites/:siteId/publish-failure               cancels that
//   GET    publish                                     the settings
//   POST   publish {"durationMs"}                      how long a publish takes (emulated ms)
import { EmulatorRefusal } from '../../refusal.js';
import type { ControlRoute } from '../../types.js';
import { publishSlice as slice } from './state.js';

export const publishControl: ControlRoute[] = [
  {
    verb: 'POST',
    path: 'sites/:siteId/publish-failure',
    run: ({ params, body, emu }) => {
      const site = emu.siteOr404(params.siteId);
      const message =
        typeof body.message === 'string' && body.message
          ? body.message
          : 'The build failed: a page could not be rendered.';
      slice(emu).failNext[site._id] = message;
      return { siteId: site._id, failNext: message };
    },
  },
  {
    verb: 'DELETE',
    path: 'sites/:siteId/publish-failure',
    run: ({ params, emu }) => {
      const site = emu.siteOr404(params.siteId);
      delete slice(emu).failNext[site._id];
      return { siteId: site._id, failNext: null };
    },
  },
  { verb: 'GET', path: 'publish', run: ({ emu }) => ({ durationMs: slice(emu).durationMs }) },
  {
    verb: 'POST',
    path: 'publish',
    run: ({ body, emu }) => {
      const ms = body.durationMs;
      if (!(typeof ms === 'number' && Number.isInteger(ms) && ms >= 1 && ms <= 3_600_000))
        throw new EmulatorRefusal(400, '`durationMs` must be a whole number from 1 to 3600000.');
      slice(emu).durationMs = ms;
      return { durationMs: ms };
    },
  },
];
