// What `sitebuilder emulator` prints once it listens: the address and the demo tokens (or, with
// --setup, what to type in another terminal), and its --debug lines.
import type { Context } from '../../context.js';
import { listTokens, type RunningEmulator } from '../../emulator/index.js';
import { SECRET_HEADER } from '../../emulator/guard.js';
import type { LogEntry } from '../../emulator/request-log.js';
import { flag, sb } from '../../io/shell.js';
import { type EmulatorProfile, SETUP_PROFILE } from './setup.js';

/** With --setup: what to type in another terminal, nothing to copy. */
export function printSetupBanner(running: RunningEmulator, profile: EmulatorProfile, ctx: Context): void {
  const { io } = ctx;
  const full = listTokens(running.emulator)[0];
  if (ctx.globals.json) {
    io.printJsonLine({
      baseUrl: running.baseUrl,
      shapes: running.shapes,
      tokens: listTokens(running.emulator),
      profile: profile.name,
      ...(running.controlSecret !== undefined && { controlSecret: running.controlSecret }),
    });
    return;
  }
  io.outLine(io.prose(`Emulator listening on ${running.baseUrl}`, 'stdout'));
  const status = sb('auth status', ...(profile.name === SETUP_PROFILE ? [] : [flag('--profile', profile.name)]));
  io.info(
    `Profile ${profile.name} points at it with the demo token ${full?.name ?? ''} and is the current profile until the emulator stops.`,
  );
  io.info('');
  io.info('In another terminal:');
  io.info('  sitebuilder chat site_bakery "Add an about page"');
  io.info('  sitebuilder site list');
  io.info('');
  if (running.controlSecret !== undefined)
    io.outLine(io.prose(`Control API secret (send it as ${SECRET_HEADER}): ${running.controlSecret}`, 'stdout'));
  io.info(
    `Ctrl-C stops it; profile ${profile.before ?? 'default'} is current again then. \`${status}\` says which profile and address are in force.`,
  );
}

/** The address, the demo tokens and what to try. */
export function printBanner(running: RunningEmulator, ctx: Context): void {
  const { io } = ctx;
  const tokens = listTokens(running.emulator);
  if (ctx.globals.json) {
    io.printJsonLine({
      baseUrl: running.baseUrl,
      shapes: running.shapes,
      tokens,
      ...(running.controlSecret !== undefined && { controlSecret: running.controlSecret }),
    });
    return;
  }
  const now = running.emulator.clock.now();
  const records = new Map(running.state.core.tokens.map((t) => [t.token, t]));
  io.outLine(io.prose(`Emulator listening on ${running.baseUrl}`, 'stdout'));
  if (running.shapes !== 'default')
    io.outLine(
      io.prose(
        `Shapes: ${running.shapes} (other field names, orders and id forms; docs/emulator.md "Shapes")`,
        'stdout',
      ),
    );
  io.outLine('');
  io.outLine('Tokens (full-scope first):');
  const width = Math.max(...tokens.map((t) => t.name.length));
  const tokenWidth = Math.max(...tokens.map((t) => t.token.length));
  for (const t of tokens) {
    const r = records.get(t.token);
    const status = r?.revoked
      ? 'revoked'
      : r?.expiresAt !== null && r !== undefined && r.expiresAt <= now
        ? 'expired'
        : undefined;
    const scopes = t.scopes.length >= 10 ? 'all scopes' : t.scopes.join(' ');
    const where = status
      ? `(${status}: refused with 401)`
      : `${scopes}; workspaces ${t.workspaces.join(' ') || 'none'}`;
    io.outLine(io.prose(`  ${t.name.padEnd(width)}  ${t.token.padEnd(tokenWidth)}  ${where}`, 'stdout'));
  }
  io.info('');
  io.info('Try it:');
  io.info(`  export SITEBUILDER_BASE_URL=${running.baseUrl} SITEBUILDER_TOKEN=${tokens[0]?.token ?? ''}`);
  io.info('  sitebuilder workspace list');
  io.info('Or start it with --setup: a profile then points at it, with nothing to export.');
  io.info(`Control API: ${running.baseUrl}/_emulator (see docs/emulator.md). Ctrl-C stops it.`);
  if (running.controlSecret !== undefined)
    io.outLine(io.prose(`Control API secret (send it as ${SECRET_HEADER}): ${running.controlSecret}`, 'stdout'));
}

/** One --debug line per request. */
export function formatLogLine(e: LogEntry): string {
  const what = e.method ?? `${e.verb} ${e.path}`;
  const extra = [
    e.idempotencyKey ? `key=${e.idempotencyKey}` : '',
    e.replayed ? 'replayed' : '',
    e.fault ? `fault#${e.fault.id}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return `[emulator] ${e.time} ${e.requestId} ${what} → ${e.status}${e.token ? ` token=${e.token}` : ''}${extra ? ` ${extra}` : ''}`;
}
