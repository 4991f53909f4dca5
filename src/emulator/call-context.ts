// The context a handler receives, with the checks every domain repeats: reaching a
// workspace or a site, role permissions, the plan, and credits.
import type { MethodInfo } from '../api/method-index.js';
import type { Permission } from '../api/registry-terms.js';
import { chargeCredits } from './credits.js';
import { refuse } from './refusal.js';
import type { TokenRecord, UserRecord, WorkspaceRecord } from './state.js';
import type { Args, CallContext, EmulatorHost } from './host.js';

const PERMISSION_WORDS: Record<Permission, string> = {
  deleteProjects: 'Delete projects',
  manageDomains: 'Manage domains',
};

export function createCallContext(init: {
  emu: EmulatorHost;
  spec: MethodInfo;
  /** Arguments that fit the method's schema: checked by the pipeline, or built by a domain calling a method. */
  args: object;
  token: TokenRecord;
  user: UserRecord;
  requestId: string;
  idempotencyKey?: string;
}): CallContext {
  const { emu, token } = init;
  const call: CallContext = {
    ...init,
    args: init.args as Args,
    method: init.spec.name,
    now: () => emu.clock.now(),
    refuse: (status, message, data) => refuse(status, message, data ?? null),

    requireWorkspace(workspaceId) {
      const ws = emu.workspace(workspaceId);
      if (!ws) return refuse(404, `No workspace has the id "${workspaceId}".`, { reason: 'not-found', workspaceId });
      checkReach(emu, token, ws);
      return ws;
    },

    requireSite(projectId) {
      const site = emu.site(projectId);
      if (!site) return refuse(404, `No site has the id "${projectId}".`, { reason: 'not-found', projectId });
      const ws = call.workspaceOf(site);
      checkReach(emu, token, ws);
      if (init.spec.write && emu.isLocked(site)) {
        refuse(
          403,
          `The site "${site.name}" is locked because ${ws.name} has more sites than its plan allows (${ws.siteLimit}); upgrade the plan or remove sites to unlock it.`,
          { reason: 'site-locked', siteLimit: ws.siteLimit, sitesCount: emu.sitesOf(ws._id).length },
        );
      }
      return site;
    },

    workspaceOf(site) {
      const ws = emu.workspace(site.workspaceId);
      if (!ws) throw new Error(`Site ${site._id} belongs to a missing workspace ${site.workspaceId}.`);
      return ws;
    },

    requirePermission(workspace, permission) {
      if (emu.hasPermission(workspace, token.userId, permission)) return;
      const role = emu.memberRole(workspace, token.userId)?.role ?? 'none';
      refuse(
        403,
        `Your role in ${workspace.name} (${role}) lacks the ${PERMISSION_WORDS[permission]} permission, which ${init.spec.name} needs.`,
        {
          reason: 'missing-permission',
          permission,
        },
      );
    },

    requirePaidPlan(workspace, what) {
      if (workspace.plan === 'paid') return;
      refuse(403, `${what} needs a paid plan; ${workspace.name} is on the Free plan.`, {
        reason: 'paid-plan-required',
        plan: workspace.plan,
      });
    },

    requireCredits(workspace) {
      if (workspace.credits > 0) return;
      refuse(
        402,
        `${workspace.name} has no AI credits left; nothing ran and nothing was charged. Add credits, then try again.`,
        {
          reason: 'no-credits',
          credits: workspace.credits,
        },
      );
    },

    chargeCredits(workspace, amount, note, site) {
      return chargeCredits(emu, workspace, amount, note, site?._id ?? null);
    },
  };
  return call;
}

/** 403 when the token may not act in this workspace. */
export function checkReach(emu: EmulatorHost, token: TokenRecord, ws: WorkspaceRecord): void {
  if (token.workspaces && !token.workspaces.includes(ws._id)) {
    refuse(403, `This token cannot reach the workspace ${ws.name} (${ws._id}); it is narrowed to other workspaces.`, {
      reason: 'workspace-not-reachable',
      workspaceId: ws._id,
    });
  }
  const member = emu.memberRole(ws, token.userId);
  if (!member) {
    refuse(403, `The workspace ${ws.name} (${ws._id}) is not reachable with this token: its user is not a member.`, {
      reason: 'workspace-not-reachable',
      workspaceId: ws._id,
    });
  }
  if (!emu.hasPermission(ws, token.userId, 'apiAccess')) {
    refuse(
      403,
      `Your role in ${ws.name} (${member!.role}) lacks the API access permission; ask a workspace owner for it.`,
      {
        reason: 'no-api-access',
        workspaceId: ws._id,
        role: member!.role,
      },
    );
  }
}
