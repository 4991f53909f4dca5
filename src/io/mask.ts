// The token never reaches an output (docs/reliability.md): not where a command shows which
// token is in force (`auth status`: maskToken), and not where the service echoes it back — in a
// refusal's message, a record's name, a header such as X-Request-Id, a `--debug` line or what
// `api` prints. Every token handed to a client is registered with the IO object, whose writers
// put its mask in its place after cleaning (io.ts), in every mode; prompts do the same
// (show-prompt.ts). `auth token`, the one command meant to print it, hands it to no client.

/** Shorter secrets are not looked for: too likely to be part of ordinary words. */
const SECRET_MIN_LENGTH = 8;

/** A masked token: its prefix and last four characters only (`sbt_…9f8e`). */
export function maskToken(token: string): string {
  if (token.length <= 12) return '****';
  const prefix = /^[A-Za-z]+_(?:[A-Za-z]+_)?/.exec(token)?.[0] ?? token.slice(0, 3);
  return `${prefix}…${token.slice(-4)}`;
}

/** The secrets of one process and where they are replaced by their masks. */
export class SecretMask {
  /** Each secret's forms (as it is; as a JSON string holds it) with the mask that replaces them. */
  #forms: Array<[string, string]> = [];

  add(secret: string | undefined): void {
    if (!secret || secret.length < SECRET_MIN_LENGTH || this.#forms.some(([s]) => s === secret)) return;
    const mask = maskToken(secret);
    const escaped = JSON.stringify(secret).slice(1, -1);
    this.#forms.push([secret, mask]);
    if (escaped !== secret) this.#forms.push([escaped, mask]);
    // The longest first: a secret that holds another is masked whole.
    this.#forms.sort((a, b) => b[0].length - a[0].length);
  }

  /** The text with every secret replaced by its mask. */
  apply(text: string): string {
    let out = text;
    for (const [secret, mask] of this.#forms) if (out.includes(secret)) out = out.split(secret).join(mask);
    return out;
  }
}

/** Headers with every secret masked in their values (X-Request-Id, a Location, …). */
export function maskHeaders<H extends Record<string, string | string[] | undefined>>(headers: H, mask: SecretMask): H {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] = Array.isArray(value)
      ? value.map((v) => mask.apply(v))
      : value === undefined
        ? value
        : mask.apply(value);
  return out as H;
}

/**
 * A parsed answer with every secret masked in its strings and keys. Needed only when its text
 * held \u escapes (a token spelled `\u0073bt_…` is no token until parsed; the text itself was
 * masked before): a loop with its own stack, so data nested 100,000 levels deep is walked too.
 */
export function maskParsed<T>(value: T, text: string, mask: SecretMask): T {
  if (!text.includes('\\u') || typeof value !== 'object' || value === null) return value;
  const stack: unknown[] = [value];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const node = item as Record<string, unknown>;
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (typeof v === 'string') node[key] = mask.apply(v);
      else if (v !== null && typeof v === 'object') stack.push(v);
      const masked = mask.apply(key);
      if (masked !== key) {
        Object.defineProperty(node, masked, { value: node[key], enumerable: true, writable: true, configurable: true });
        delete node[key];
      }
    }
  }
  return value;
}
