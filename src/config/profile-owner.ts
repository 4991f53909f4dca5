// Whose a saved profile is, so that no token is overwritten without consent (docs/guide.md
// "Authentication and profiles"). `emulator --setup` marks the profile it creates
// (`"emulator": true` in config.json) and writes into no other, whatever it holds; `auth login` writes into such a
// profile only a token for the address it already points at, and replaces any saved token only
// with the person's word (a confirmation, or --yes).
import type { ProfileData } from './store.js';

/** Saved by `emulator --setup`: the emulator's address and demo token, nothing of the person's. */
export function isEmulatorProfile(p: ProfileData | undefined): boolean {
  return p?.emulator === true;
}

/**
 * Whether `emulator --setup` may write into this profile: only one it made (marked), or none yet.
 * Any other saved profile is the person's, whatever its token or address looks like (issue 20:
 * a demo token at a loopback address is one a person may have logged in with).
 */
export function emulatorMayTake(p: ProfileData | undefined): boolean {
  return !p || isEmulatorProfile(p);
}

const same = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** `auth login` would put into an emulator's profile a token for another address. */
export function otherAddressForEmulator(p: ProfileData | undefined, baseUrl: string): boolean {
  return isEmulatorProfile(p) && !(p?.baseUrl !== undefined && same(p.baseUrl, baseUrl));
}
