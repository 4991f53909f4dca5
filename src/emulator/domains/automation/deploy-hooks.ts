// Deploy hooks: trigger_deploy_hook, the hook's own address (POST /hooks/deploy/<hookId>, the
// way a CMS or CI calls it), and list_deploy_hook_calls (next-cursor pages, newest first).
// At most 10 calls a minute per hook, counting both ways in (the service's limit); a call past
// it is refused with 429 until the minute passes. A call publishes the site through the
// publish domain; when that publish is refused, the call is refused with 422 (the service's
// example) and carries the publish's refusal.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LIMITS } from '../../../api/limits.js';
import { methodInfo } from '../../../api/method-index.js';
import { ALL_SCOPES } from '../../../api/registry-terms.js';
import { createCallContext } from '../../call-context.js';
import { EmulatorRefusal, refuse } from '../../refusal.js';
import type { SiteRecord, TokenRecord } from '../../state.js';
import { ALREADY_PUBLISHING } from '../publish/model.js';
import { cursorPage, quotaWait, waitWords } from '../shared/listing.js';
import { HOUR, MINUTE, newestFirst, seededRandom } from '../shared/sample-data.js';
import type { CallContext, EmulatorHost, Handler, HandlerResult } from '../../host.js';

export interface DeployHookRecord {
  hookId: string;
  siteId: string;
  name: string;
}

export interface DeployHookCallRecord {
  callId: string;
  hookId: string;
  siteId: string;
  at: number;
  via: 'api' | 'address';
  outcome: 'publishing' | 'refused';
  deploymentId: string | null;
  message: string;
}

export interface DeployHookSlice {
  hooks: DeployHookRecord[];
  hookCalls: DeployHookCallRecord[];
  /** hookId → times of the calls of the last minute. */
  hookWindows: Record<string, number[]>;
}

const slice = (emu: EmulatorHost) => emu.slice<DeployHookSlice>('automation');

/** Runs publish_site for the hook; a refusal of the publish comes back instead of thrown. */
async function publishFor(
  emu: EmulatorHost,
  site: SiteRecord,
  call: CallContext,
): Promise<{ deploymentId: string | null; refusal?: EmulatorRefusal }> {
  const publish = emu.handlerFor('publish_site');
  if (!publish) return { deploymentId: null };
  const ctx = createCallContext({
    emu,
    spec: methodInfo('publish_site')!,
    args: { projectId: site._id },
    token: call.token,
    user: call.user,
    requestId: call.requestId,
  });
  try {
    const result = await publish(ctx);
    return { deploymentId: (result.data as { deploymentId?: string } | null)?.deploymentId ?? null };
  } catch (err) {
    if (err instanceof EmulatorRefusal) return { deploymentId: null, refusal: err };
    throw err;
  }
}

async function callHook(
  emu: EmulatorHost,
  hook: DeployHookRecord,
  via: DeployHookCallRecord['via'],
  call: CallContext,
): Promise<HandlerResult> {
  const now = emu.clock.now();
  const times = (slice(emu).hookWindows[hook.hookId] ??= []);
  const wait = quotaWait(times, now, MINUTE, LIMITS.deployHookPerMinute);
  if (wait !== null) {
    refuse(
      429,
      `The deploy hook "${hook.name}" was called ${LIMITS.deployHookPerMinute} times in the last minute, the most it takes. Try again in ${waitWords(wait)}.`,
      {
        reason: 'deploy-hook-limit-reached',
        limit: LIMITS.deployHookPerMinute,
        retryAfterSeconds: Math.ceil(wait / 1000),
      },
    );
  }
  times.push(now);
  const site = emu.site(hook.siteId)!;
  const { deploymentId, refusal } = await publishFor(emu, site, call);
  const record: DeployHookCallRecord = {
    callId: emu.newId('hookcall'),
    hookId: hook.hookId,
    siteId: site._id,
    at: now,
    via,
    outcome: refusal ? 'refused' : 'publishing',
    deploymentId,
    message: refusal ? refusal.message : 'The publish has started.',
  };
  slice(emu).hookCalls.push(record);
  const view = callView(emu, record);
  if (refusal) {
    refuse(422, `The deploy hook "${hook.name}" was called, but the publish was refused: ${refusal.message}`, {
      reason: 'publish-refused',
      call: view,
      publish: { status: refusal.status, message: refusal.message, data: refusal.data },
    });
  }
  return { data: view, message: `The deploy hook "${hook.name}" was called; the publish has started.` };
}

const callView = (emu: EmulatorHost, c: DeployHookCallRecord) => ({ ...c, at: emu.iso(c.at) });

function hookOf(emu: EmulatorHost, site: SiteRecord, hookId: string): DeployHookRecord {
  const hook = slice(emu).hooks.find((h) => h.siteId === site._id && h.hookId === hookId);
  if (!hook) refuse(404, `No deploy hook has the id "${hookId}" on this site.`, { reason: 'not-found', hookId });
  return hook!;
}

const triggerDeployHook: Handler = (call) => {
  const site = call.requireSite(call.args.projectId);
  // trigger_deploy_hook requires hookId (list_deploy_hook_calls leaves it optional).
  return callHook(call.emu, hookOf(call.emu, site, call.args.hookId!), 'api', call);
};

const listDeployHookCalls: Handler = (call) => {
  const site = call.requireSite(call.args.projectId);
  if (call.args.hookId !== undefined) hookOf(call.emu, site, call.args.hookId);
  const all = slice(call.emu).hookCalls.filter(
    (c) => c.siteId === site._id && (call.args.hookId === undefined || c.hookId === call.args.hookId),
  );
  return cursorPage(
    newestFirst(all, (c) => c.at).map((c) => callView(call.emu, c)),
    call.args,
    20,
    'calls',
  );
};

export const deployHookHandlers = {
  trigger_deploy_hook: triggerDeployHook,
  list_deploy_hook_calls: listDeployHookCalls,
};

/** POST /hooks/deploy/<hookId>: the hook's address is its secret, so no token is needed. */
export async function deployHookHttp(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  emu: EmulatorHost,
): Promise<boolean> {
  const m = /^\/hooks\/deploy\/([^/]+)$/.exec(url.pathname);
  if (!m) return false;
  const answer = (status: number, message: string, data: unknown = null) =>
    res
      .writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
      .end(`${JSON.stringify({ success: status < 400, message, data, code: status })}\n`);
  if (req.method !== 'POST') {
    answer(405, 'Call a deploy hook with POST.');
    return true;
  }
  const hook = slice(emu).hooks.find((h) => h.hookId === decodeURIComponent(m[1]));
  const site = hook && emu.site(hook.siteId);
  if (!hook || !site) {
    answer(404, 'No deploy hook at this address.');
    return true;
  }
  // The hook acts as the site's creator; a token with every scope stands in for the address.
  const token: TokenRecord = {
    _id: `hook_${hook.hookId}`,
    name: `deploy hook ${hook.name}`,
    token: '',
    userId: site.createdBy,
    scopes: [...ALL_SCOPES],
    workspaces: null,
    expiresAt: null,
    revoked: false,
    createdAt: 0,
  };
  const user = emu.user(site.createdBy)!;
  const call = createCallContext({
    emu,
    spec: methodInfo('trigger_deploy_hook')!,
    args: { projectId: site._id, hookId: hook.hookId },
    token,
    user,
    requestId: emu.newRequestId(),
  });
  try {
    const result = await callHook(emu, hook, 'address', call);
    answer(200, result.message ?? 'OK', result.data);
  } catch (err) {
    if (!(err instanceof EmulatorRefusal)) throw err;
    answer(err.status, err.message, err.data);
  }
  return true;
}

export function seedDeployHooks(emu: EmulatorHost, s: DeployHookSlice): void {
  const now = emu.clock.now();
  const random = seededRandom('deploy-hooks');
  const hooks: DeployHookRecord[] = [
    { hookId: 'hook_bakery_cms', siteId: 'site_bakery', name: 'CMS publish' },
    { hookId: 'hook_docs_ci', siteId: 'site_docs', name: 'Docs CI' },
  ].filter((h) => emu.site(h.siteId));
  s.hooks.push(...hooks);
  for (const hook of hooks) {
    for (let i = 1; i <= 25; i++) {
      const refused = random() < 0.12;
      s.hookCalls.push({
        callId: emu.newId('hookcall'),
        hookId: hook.hookId,
        siteId: hook.siteId,
        at: now - i * 9 * HOUR,
        via: random() < 0.7 ? 'address' : 'api',
        outcome: refused ? 'refused' : 'publishing',
        deploymentId: null,
        message: refused ? ALREADY_PUBLISHING : 'The publish has started.',
      });
    }
  }
}
