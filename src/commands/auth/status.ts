import { addressOrigin, addressSource, checkServiceAddress, type Context } from '../../context.js';
import { defineCommand } from '../../core/define.js';
import { ApiError, CliError, ExitCode } from '../../errors.js';
import { printFields } from '../../io/print.js';
import { maskToken } from '../../io/mask.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { readTokenInfo } from '../../service/token.js';

const SOURCES = { flag: '--token flag', env: 'SITEBUILDER_TOKEN', profile: 'saved profile', none: 'none' } as const;
const PROFILE_WHY = {
  flag: 'from --profile',
  env: 'from SITEBUILDER_PROFILE',
  current: 'the current profile',
  default: 'no other is chosen',
} as const;
const NO_ADDRESS = 'none set: --base-url, SITEBUILDER_BASE_URL, or `sitebuilder auth login --base-url URL`';

export const status = defineCommand({
  name: 'status',
  summary: 'Show which token is in force and what it can do',
  description:
    'Show the profile in force and why, the service’s address and where it comes from, where the token comes from (flag, environment or profile), the masked token, its name, scopes, workspaces, expiry and the calls left this minute. Exits 4 when there is no usable token. Reading the token costs no budget.',
  exitCodes: '0 the token works, 1 no answer at the address, 2 no address set, 4 no usable token',
  examples: ['sitebuilder auth status', 'sitebuilder auth status --json | jq .scopes'],
  jsonFields:
    '{ profile, profileSource, baseUrl, baseUrlSource, source, token (masked), valid, name, scopes, workspaces, expiresAt, rateLimit: { limit, remaining, reset }, error }',
  async run(_opts, ctx) {
    const profile = ctx.profileName();
    const where = addressSource(ctx);
    const baseUrl = where === 'none' ? null : ctx.baseUrl();
    const { token, source } = ctx.token();
    const base = {
      profile,
      profileSource: profileSource(ctx),
      baseUrl,
      baseUrlSource: where,
      source,
      token: token ? maskToken(token) : null,
    };
    // What is known without the service: said whatever the service answers, or if it does not.
    const known: Array<[string, unknown]> = [
      ['Profile', `${profile} (${PROFILE_WHY[base.profileSource]})`],
      ['Service', baseUrl === null ? NO_ADDRESS : `${baseUrl} (from ${addressOrigin(ctx)})`],
      ['Token', token ? `${base.token} (from ${SOURCES[source]})` : 'none'],
    ];
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
    const fail = (error: string) => {
      if (ctx.globals.json) ctx.io.printJson({ ...base, ...empty, error });
      else printFields(ctx.io, known);
    };
    if (baseUrl === null) {
      // No address is said first, as every command says it (exit 2): a token would not help.
      try {
        checkServiceAddress(ctx.baseUrl());
      } catch (err) {
        fail((err as Error).message);
        throw err;
      }
    }
    if (!token) {
      fail('no token');
      if (!ctx.globals.json)
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
        ...known,
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
      // No answer (an address that does not answer, a refusal): what is known is still said.
      if (err instanceof CliError) fail(err.message);
      throw err;
    }
  },
});

export type ProfileSource = 'flag' | 'env' | 'current' | 'default';

/** Why this profile is the one in force: the way back to another one starts there. */
export function profileSource(ctx: Context): ProfileSource {
  if (ctx.globals.profile !== undefined) return 'flag';
  if (ctx.env.SITEBUILDER_PROFILE) return 'env';
  return ctx.config.read().currentProfile ? 'current' : 'default';
}
