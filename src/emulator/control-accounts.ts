// The control API's accounts (control-api.ts): the tokens that call the emulator, and the
// workspaces they reach with their members and credits. Everything given is checked before
// anything changes, so a refusal (ControlError) leaves the state as it was.
import { randomBytes } from 'node:crypto';
import { ALL_SCOPES } from '../api/registry-terms.js';
import {
  bad,
  ControlError,
  type TokenInput,
  tokenChanges,
  type WorkspaceInput,
  workspaceChanges,
} from './control-input.js';
import type { Emulator } from './emulator.js';
import { DEMO_USER_ID } from './seed.js';
import {
  ROLE_PERMISSIONS,
  TOKEN_PREFIX,
  type Role,
  type RolePermission,
  type TokenRecord,
  type WorkspaceRecord,
} from './state.js';

export function findToken(emu: Emulator, ref: string): TokenRecord {
  const t = emu.state.core.tokens.find((x) => x._id === ref || x.name === ref || x.token === ref);
  if (!t) throw new ControlError(404, `No token has the id, name or secret "${ref}".`);
  return t;
}

export function createToken(emu: Emulator, input: TokenInput = {}): TokenRecord {
  // Everything is checked before anything changes (the id counter included).
  const changes = tokenChanges(input, emu.clock.now());
  if (input.token !== undefined && !(typeof input.token === 'string' && /^[\x21-\x7e]{1,256}$/.test(input.token)))
    bad('token must be 1 to 256 visible characters.');
  const secret = input.token ?? `${TOKEN_PREFIX}${randomBytes(16).toString('hex')}`;
  if (!secret.startsWith(TOKEN_PREFIX)) bad(`A token begins with ${TOKEN_PREFIX}.`);
  if (emu.state.core.tokens.some((t) => t.token === secret)) bad('A token with that secret exists already.');
  const userId = input.userId ?? DEMO_USER_ID;
  if (typeof userId !== 'string' || !emu.user(userId))
    throw new ControlError(404, `No user has the id ${JSON.stringify(userId)}.`);
  const record: TokenRecord = {
    _id: emu.newId('tok'),
    name: `token-${emu.state.counters.tok ?? 0}`,
    token: secret,
    userId,
    scopes: [...ALL_SCOPES],
    workspaces: null,
    expiresAt: null,
    revoked: false,
    createdAt: emu.clock.now(),
    ...changes,
  };
  emu.state.core.tokens.push(record);
  emu.tokensChanged();
  return record;
}

export function updateToken(emu: Emulator, ref: string, input: TokenInput): TokenRecord {
  const record = findToken(emu, ref);
  if (input.token !== undefined || input.userId !== undefined) bad('The secret and the user of a token cannot change.');
  return Object.assign(record, tokenChanges(input, emu.clock.now()));
}

export function findWorkspace(emu: Emulator, id: string): WorkspaceRecord {
  const ws = emu.workspace(id);
  if (!ws) throw new ControlError(404, `No workspace has the id "${id}".`);
  return ws;
}

export function createWorkspace(
  emu: Emulator,
  input: WorkspaceInput & { _id?: string; ownerId?: string } = {},
): WorkspaceRecord {
  if (input._id !== undefined && !(typeof input._id === 'string' && /^[\w.-]{1,100}$/.test(input._id)))
    bad('_id must be 1 to 100 letters, digits, _, . or -.');
  if (input._id !== undefined && emu.workspace(input._id)) bad(`A workspace with the id ${input._id} exists already.`);
  const owner = input.ownerId ?? DEMO_USER_ID;
  if (typeof owner !== 'string' || !emu.user(owner))
    throw new ControlError(404, `No user has the id ${JSON.stringify(owner)}.`);
  // Checked before the workspace exists: a refusal leaves nothing behind.
  const changes = workspaceChanges(input);
  const id = input._id ?? emu.newId('ws');
  const ws: WorkspaceRecord = {
    _id: id,
    name: id,
    plan: 'paid',
    siteLimit: 25,
    credits: 1000,
    creditsSpent: 0,
    spendingLimit: null,
    members: [{ userId: owner, role: 'owner', permissions: [...ROLE_PERMISSIONS.owner] }],
    createdAt: emu.clock.now(),
  };
  emu.state.core.workspaces.push(ws);
  return applyWorkspace(emu, ws, changes);
}

/** Credits, plan, site limit, spending cap, name. */
export function updateWorkspace(emu: Emulator, id: string, input: WorkspaceInput): WorkspaceRecord {
  const ws = findWorkspace(emu, id);
  return applyWorkspace(emu, ws, workspaceChanges(input));
}

function applyWorkspace(emu: Emulator, ws: WorkspaceRecord, changes: WorkspaceInput): WorkspaceRecord {
  const { credits, ...rest } = changes;
  Object.assign(ws, rest);
  if (credits !== undefined) {
    emu.state.core.creditActivity.push({
      _id: emu.newId('cred'),
      workspaceId: ws._id,
      at: emu.clock.now(),
      amount: credits - ws.credits,
      balance: credits,
      note: 'Balance set through the emulator control API',
      siteId: null,
    });
    ws.credits = credits;
  }
  return ws;
}

export function setMember(
  emu: Emulator,
  workspaceId: string,
  input: { userId: string; role?: Role; permissions?: RolePermission[]; remove?: boolean },
): WorkspaceRecord {
  const ws = findWorkspace(emu, workspaceId);
  if (typeof input.userId !== 'string' || !emu.user(input.userId))
    throw new ControlError(404, `No user has the id ${JSON.stringify(input.userId)}.`);
  if (input.remove !== undefined && typeof input.remove !== 'boolean') bad('remove must be true or false.');
  const role = input.role ?? 'editor';
  if (!Object.hasOwn(ROLE_PERMISSIONS, role)) bad(`role must be one of: ${Object.keys(ROLE_PERMISSIONS).join(', ')}.`);
  const known = ROLE_PERMISSIONS.owner;
  if (
    input.permissions !== undefined &&
    (!Array.isArray(input.permissions) || input.permissions.some((p) => !known.includes(p)))
  )
    bad(`permissions must be a list of: ${known.join(', ')}.`);
  ws.members = ws.members.filter((m) => m.userId !== input.userId);
  if (input.remove) return ws;
  ws.members.push({
    userId: input.userId,
    role,
    permissions: input.permissions ? [...input.permissions] : [...ROLE_PERMISSIONS[role]],
  });
  return ws;
}
