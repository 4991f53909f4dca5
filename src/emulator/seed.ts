// The seeded demo data (documented in docs/emulator.md "Seeded data"): fixed, readable ids so
// docs, demos and tests can name them. Every refusal the service documents has a workspace or
// a token to try it with.
import { ALL_SCOPES, type Scope } from '../api/registry-terms.js';
import {
  ROLE_PERMISSIONS,
  type MemberRecord,
  type Plan,
  type Role,
  type TokenRecord,
  type WorkspaceRecord,
} from './state.js';
import type { EmulatorHost } from './host.js';

const DAY = 86_400_000;

export const DEMO_USER_ID = 'usr_dana';
export const TEAMMATE_USER_ID = 'usr_sam';
const OTHER_USER_ID = 'usr_olivia';

export const SEED_WORKSPACES = {
  demo: 'ws_demo',
  free: 'ws_free',
  capped: 'ws_capped',
  broke: 'ws_broke',
  client: 'ws_client',
  private: 'ws_private',
} as const;

/** The demo tokens, full-scope first (the order `sitebuilder emulator` prints them in). */
export const DEMO_TOKENS: Readonly<
  Record<'full' | 'narrow' | 'readonly' | 'teammate' | 'expired' | 'revoked', string>
> = {
  full: 'sbt_demo_full_5f1c9a2e7b3d4086',
  narrow: 'sbt_demo_narrow_0b7e4d2a9c1f3865',
  readonly: 'sbt_demo_readonly_8e2d6b1f4a9c0735',
  teammate: 'sbt_demo_teammate_3a9f0c7e5d2b1648',
  expired: 'sbt_demo_expired_6c4b2e8f1d0a9357',
  revoked: 'sbt_demo_revoked_2d8a5f3c9e1b7460',
};

const member = (userId: string, role: Role): MemberRecord => ({
  userId,
  role,
  permissions: [...ROLE_PERMISSIONS[role]],
});

export function seedCore(emu: EmulatorHost): void {
  const now = emu.clock.now();
  const core = emu.state.core;
  core.users.push(
    { _id: DEMO_USER_ID, name: 'Dana Demo', email: 'dana@demo.example' },
    { _id: TEAMMATE_USER_ID, name: 'Sam Teammate', email: 'sam@demo.example' },
    { _id: OTHER_USER_ID, name: 'Olivia Other', email: 'olivia@other.example' },
  );

  const ws = (
    _id: string,
    name: string,
    plan: Plan,
    siteLimit: number,
    credits: number,
    members: MemberRecord[],
    extra: Partial<WorkspaceRecord> = {},
  ): WorkspaceRecord => {
    const w: WorkspaceRecord = {
      _id,
      name,
      plan,
      siteLimit,
      credits,
      creditsSpent: 0,
      spendingLimit: null,
      members,
      createdAt: now - 90 * DAY,
      ...extra,
    };
    core.workspaces.push(w);
    return w;
  };
  ws(SEED_WORKSPACES.demo, 'Demo Studio', 'paid', 25, 1000, [
    member(DEMO_USER_ID, 'owner'),
    member(TEAMMATE_USER_ID, 'editor'),
  ]);
  ws(SEED_WORKSPACES.free, 'Side Projects', 'free', 2, 50, [member(DEMO_USER_ID, 'owner')]);
  ws(SEED_WORKSPACES.capped, 'Capped Agency', 'paid', 10, 300, [member(DEMO_USER_ID, 'admin')], {
    spendingLimit: 500,
    creditsSpent: 500,
  });
  ws(SEED_WORKSPACES.broke, 'Broke Co', 'paid', 10, 0, [member(DEMO_USER_ID, 'admin')]);
  ws(SEED_WORKSPACES.client, 'Client Corp', 'paid', 10, 400, [
    member(OTHER_USER_ID, 'owner'),
    member(DEMO_USER_ID, 'viewer'),
  ]);
  ws(SEED_WORKSPACES.private, 'Olivia’s Workspace', 'paid', 10, 400, [member(OTHER_USER_ID, 'owner')]);

  const site = (_id: string, workspaceId: string, name: string, prompt: string, daysAgo: number) =>
    emu.addSite(
      { _id, workspaceId, name, prompt, importSource: null, createdBy: DEMO_USER_ID, createdAt: now - daysAgo * DAY },
      { notify: false },
    );
  site(
    'site_bakery',
    SEED_WORKSPACES.demo,
    'Sunrise Bakery',
    'A warm one-page site for a neighbourhood bakery with opening hours and a menu.',
    30,
  );
  site(
    'site_portfolio',
    SEED_WORKSPACES.demo,
    'Ana Lima Portfolio',
    'A photographer’s portfolio with a gallery, an about page and a contact form.',
    21,
  );
  site(
    'site_docs',
    SEED_WORKSPACES.demo,
    'Acme Docs',
    'Product documentation with a sidebar, search and a changelog.',
    7,
  );
  site('site_blog', SEED_WORKSPACES.free, 'Weekend Blog', 'A simple personal blog.', 60);
  site('site_recipes', SEED_WORKSPACES.free, 'Family Recipes', 'A recipe collection grouped by season.', 45);
  site('site_capped', SEED_WORKSPACES.capped, 'Agency Landing', 'A landing page for a design agency.', 14);
  site('site_shop', SEED_WORKSPACES.broke, 'Corner Shop', 'A small shop with a product list.', 10);
  site('site_client', SEED_WORKSPACES.client, 'Client Intranet', 'An intranet home page.', 5);
  site('site_private', SEED_WORKSPACES.private, 'Olivia’s Garden', 'A garden diary.', 3);

  const token = (
    name: string,
    secret: string,
    userId: string,
    scopes: readonly Scope[],
    extra: Partial<TokenRecord> = {},
  ) => {
    core.tokens.push({
      _id: emu.newId('tok'),
      name,
      token: secret,
      userId,
      scopes: [...scopes],
      workspaces: null,
      expiresAt: null,
      revoked: false,
      createdAt: now - DAY,
      ...extra,
    });
  };
  token('demo-full', DEMO_TOKENS.full, DEMO_USER_ID, ALL_SCOPES);
  token('demo-narrow', DEMO_TOKENS.narrow, DEMO_USER_ID, ALL_SCOPES, { workspaces: [SEED_WORKSPACES.demo] });
  token('demo-readonly', DEMO_TOKENS.readonly, DEMO_USER_ID, ['workspaces:read', 'sites:read', 'chat:read']);
  token('demo-teammate', DEMO_TOKENS.teammate, TEAMMATE_USER_ID, ALL_SCOPES);
  token('demo-expired', DEMO_TOKENS.expired, DEMO_USER_ID, ALL_SCOPES, { expiresAt: now - DAY });
  token('demo-revoked', DEMO_TOKENS.revoked, DEMO_USER_ID, ALL_SCOPES, { revoked: true });
  emu.tokensChanged();
}
