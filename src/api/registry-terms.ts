// The words of the method registry, shared by the registry itself (src/api/methods.ts, read at
// build time) and the compiled index the client and the emulator read at run time
// (src/api/method-index.ts): scopes, role permissions, listing patterns, the GET addresses.
export type Scope =
  | 'workspaces:read'
  | 'sites:read'
  | 'chat:write'
  | 'chat:read'
  | 'publish:write'
  | 'sites:create'
  | 'sites:write'
  | 'sites:delete'
  | 'data:write'
  | 'config:write';

export const ALL_SCOPES: readonly Scope[] = [
  'workspaces:read',
  'sites:read',
  'chat:write',
  'chat:read',
  'publish:write',
  'sites:create',
  'sites:write',
  'sites:delete',
  'data:write',
  'config:write',
];

/** The six listing patterns of the service (docs/emulator.md "Listing conventions"). */
export type ListingPattern = 'offset' | 'offsetHasMore' | 'nextCursor' | 'token' | 'page' | 'backwards';

/** Role permissions the service names beyond API access. */
export type Permission = 'deleteProjects' | 'manageDomains';

/** The three GET addresses besides the methods. None spends budget. */
export const GET_ADDRESSES = ['/v1/token', '/v1/tools', '/v1/openapi.json'] as const;
