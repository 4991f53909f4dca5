import type { Context } from '../../context.js';
import { defineCommand } from '../../core/define.js';
import { ApiError, ExitCode } from '../../errors.js';
import { printFields } from '../../io/print.js';
import { maskToken } from '../../io/mask.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { readTokenInfo } from './token-info.js';

const SOURCES = { flag: '--token flag', env: 'SITEBUILDER_TOKEN', profile: 'saved profile', none: 'none' } as const;

/** Why this profile is the one in force: the way back to another one starts there. */
function profileOrigin(ctx: Context): string {
  if (ctx.globals.profile !== undefined) return ' (from --profile)';
  if (ctx.env.SITEBUILDER_PROFILE) return ' (from SITEBUILDER_PROFILE)';
  return ctx.config.read().currentProfile ? ' (the current profile)' : '';
}

function baseUrlOrigin(ctx: Context): string {
  if (ctx.globals.baseUrl) return ' (from --base-url)';
  return ctx.env.SITEBUILDER_BASE_URL ? ' (from SITEBUILDER_BASE_URL)' : '';
}

export const status = defineCommand({
  name: 'status',
  summary: 'Show which token is in force and what it can do',
  description:
    'Show where the token comes from (flag, environment or profile), the masked token, its name, scopes, workspaces, expiry and the calls left this minute. Exits 4 when there is no usable token. Reading the token costs no budget.',
  examples: ['sitebuilder auth status', 'sitebuilder auth status --json | jq .scopes'],
  jsonFields:
    '{ profile, baseUrl, source, token (masked), valid, name, scopes, workspaces, expiresAt, rateLimit: { limit, remaining, reset }, error }',
  async run(_opts, ctx) {
    const profile = ctx.profileName();
    const baseUrl = ctx.baseUrl();
    const { token, source } = ctx.token();
    const base = { profile, baseUrl, source, token: token ? maskToken(token) : null };
    // Every key is always there (null when unknown), whatever the outcome.
    const empty = {
      valid: false,
      name: null,
      scopes: [],
      workspaces: [],
      expiresAt: null,
      rateLimit: null,
      error: null,
    };
    if (!token) {
      if (ctx.globals.json) ctx.io.printJson({ ...base, ...empty, error: 'no token' });
      else
        ctx.io.errLine(`Not logged in (profile ${profile}). Run \`sitebuilder auth login\`, or set SITEBUILDER_TOKEN.`);
      return ExitCode.auth;
    }
    try {
      const info = readTokenInfo((await ctx.apiWith(token).get('/v1/token', ctx.signal)).envelope.data);
      if (ctx.globals.json) {
        ctx.io.printJson({
          ...base,
          ...empty,
          valid: true,
          name: info.name ?? null,
          scopes: info.scopes,
          workspaces: info.workspaces,
          expiresAt: info.expiresAt ?? null,
          rateLimit: info.rateLimit ?? null,
        });
        return;
      }
      const rl = info.rateLimit;
      printFields(ctx.io, [
        ['Profile', `${profile}${profileOrigin(ctx)}`],
        ['Service', `${baseUrl}${baseUrlOrigin(ctx)}`],
        ['Token', `${base.token} (from ${SOURCES[source]})`],
        ['Name', sanitizeInline(info.name ?? '')],
        ['Scopes', info.scopes.join(', ')],
        ['Workspaces', info.workspaces.length ? info.workspaces.join(', ') : 'all of the owner’s'],
        ['Expires', info.expiresAt ?? (info.neverExpires ? 'never' : 'unknown')],
        ['Budget', rl ? `${rl.remaining ?? '?'} of ${rl.limit ?? '?'} calls left this minute` : 'unknown'],
      ]);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
        if (ctx.globals.json) ctx.io.printJson({ ...base, ...empty, error: err.serviceMessage });
        else ctx.io.errLine(`The token from ${SOURCES[source]} is not usable: ${err.message}`);
        return ExitCode.auth;
      }
      throw err;
    }
  },
});
