// Where a site's code lives, and the three code-hosting refusals the service names for
// send_message, publish_site, restore_backup and restore_code_backup: the code is being moved
// into a code-hosting service; the service lost access to the repository or it was deleted;
// the code lives in the workspace's own code-hosting account while the workspace is on the
// Free plan. Each is switched on per site through the control API:
//
//   POST /_emulator/sites/:siteId/code-hosting  {"state": "moving" | "access-lost" | "own-account" | "connected"}
//   GET  /_emulator/sites/:siteId/code-hosting
//
// `own-account` refuses only while the workspace is on the Free plan (as the service does),
// so setting the workspace's plan to paid through the control API lifts it.
// Handlers call assertCodeHostingAllows(emu, site) before they change anything.
import { EmulatorRefusal } from '../../refusal.js';
import type { SiteRecord } from '../../state.js';
import { defineDomain } from '../../types.js';
import type { EmulatorHost } from '../../host.js';

export const CODE_HOSTING_STATES = ['connected', 'moving', 'access-lost', 'own-account'] as const;
export type CodeHostingState = (typeof CODE_HOSTING_STATES)[number];

export interface CodeHostingSlice {
  /** Sites whose code is not simply held by the service; absent means 'connected'. */
  sites: Record<string, CodeHostingState>;
}

/** The three refusals: status, message, and the site chat error code in data.code. */
export const CODE_HOSTING_REFUSALS = {
  moving: {
    status: 409,
    code: 'code_moving',
    message: 'This site’s code is being moved into a code-hosting service. Try again once the move has finished!',
  },
  'access-lost': {
    status: 422,
    code: 'repository_unavailable',
    message:
      'The service lost access to this site’s code repository, or the repository was deleted. Reconnect the repository in the editor, then try again!',
  },
  'own-account': {
    status: 403,
    code: 'own_account_requires_paid_plan',
    message:
      'This site’s code lives in the workspace’s own code-hosting account, which needs a paid plan. Upgrade the workspace, then try again!',
  },
} as const;

export const CODE_HOSTING_DOMAIN = 'codeHosting';

function slice(emu: EmulatorHost): CodeHostingSlice {
  let s = emu.state.domains[CODE_HOSTING_DOMAIN] as CodeHostingSlice | undefined;
  if (!s) {
    s = { sites: {} };
    emu.state.domains[CODE_HOSTING_DOMAIN] = s;
  }
  return s;
}

export function codeHostingState(emu: EmulatorHost, siteId: string): CodeHostingState {
  return slice(emu).sites[siteId] ?? 'connected';
}

export function setCodeHostingState(emu: EmulatorHost, siteId: string, state: CodeHostingState): void {
  const s = slice(emu);
  if (state === 'connected') delete s.sites[siteId];
  else s.sites[siteId] = state;
}

/** Throws the site's code-hosting refusal, if one is in force; otherwise returns. */
export function assertCodeHostingAllows(emu: EmulatorHost, site: SiteRecord): void {
  const state = codeHostingState(emu, site._id);
  if (state === 'connected') return;
  if (state === 'own-account' && emu.workspace(site.workspaceId)?.plan !== 'free') return;
  const r = CODE_HOSTING_REFUSALS[state];
  const data: Record<string, unknown> = { code: r.code };
  if (state === 'own-account') data.reason = 'paid-plan-required';
  throw new EmulatorRefusal(r.status, r.message, data);
}

export const codeHostingDomain = defineDomain<CodeHostingSlice>({
  name: CODE_HOSTING_DOMAIN,
  init: () => ({ sites: {} }),
  control: [
    {
      verb: 'GET',
      path: 'sites/:siteId/code-hosting',
      run: ({ params, emu }) => {
        const site = emu.siteOr404(params.siteId);
        return { siteId: site._id, state: codeHostingState(emu, site._id), states: CODE_HOSTING_STATES };
      },
    },
    {
      verb: 'POST',
      path: 'sites/:siteId/code-hosting',
      run: ({ params, body, emu }) => {
        const site = emu.siteOr404(params.siteId);
        const state = body.state as CodeHostingState;
        if (!CODE_HOSTING_STATES.includes(state)) {
          throw new EmulatorRefusal(400, `\`state\` must be one of ${CODE_HOSTING_STATES.join(', ')}.`);
        }
        setCodeHostingState(emu, site._id, state);
        return { siteId: site._id, state };
      },
    },
  ],
});
