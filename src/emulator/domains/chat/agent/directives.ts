// Directives in a prompt take the scripted agent down every path on purpose (docs/emulator.md
// "The scripted agent and chat in the emulator"): #ask, #fail, #stall[:seconds], #reset,
// #long. They are removed from the text the agent reads.

export interface Directives {
  ask: boolean;
  fail: boolean;
  /** Emulated seconds the run stays `stalled`; 0 when not asked. */
  stallSeconds: number;
  reset: boolean;
  long: boolean;
}

export const DEFAULT_STALL_SECONDS = 30;
const MAX_STALL_SECONDS = 3600;
const DIRECTIVE = /(^|\s)#(ask|fail|stall|reset|long)(?::(\d+))?(?=\s|$|[.,;!?])/gi;

export function parseDirectives(prompt: string): { text: string; directives: Directives } {
  const directives: Directives = { ask: false, fail: false, stallSeconds: 0, reset: false, long: false };
  const text = prompt
    .replace(DIRECTIVE, (_m, lead: string, name: string, arg: string | undefined) => {
      const n = name.toLowerCase() as 'ask' | 'fail' | 'stall' | 'reset' | 'long';
      if (n === 'stall')
        directives.stallSeconds = Math.min(MAX_STALL_SECONDS, Math.max(1, arg ? Number(arg) : DEFAULT_STALL_SECONDS));
      else directives[n] = true;
      return lead;
    })
    .replace(/\s+/g, ' ')
    .trim();
  return { text, directives };
}

/** Words that carry meaning (a very short prompt leaves the key facts open: the agent asks). */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}
