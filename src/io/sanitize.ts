// Text from the service cannot drive the terminal: escape sequences (CSI, OSC such as an
// OSC 52 clipboard write, DCS, …) and control characters are removed before printing.

// ESC followed by: CSI (ESC [ … final), OSC/DCS/SOS/PM/APC (… terminated by BEL or ESC \), or a single char.
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]?|[\]PX^_][\s\S]*?(?:\u0007|\u001b\\|$)|[\s\S]?)/g;
// 8-bit CSI / OSC introducers and the rest of C1; C0 controls except tab and newline; DEL.
const C1_SEQUENCES = /[\u009b][0-?]*[ -/]*[@-~]?|[\u009d\u0090\u0098\u009e\u009f][\s\S]*?(?:\u0007|\u009c|$)/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function sanitize(text: string): string {
  return text.replace(ESCAPES, '').replace(C1_SEQUENCES, '').replace(/\r\n?/g, '\n').replace(CONTROLS, '');
}

/** For one-line cells: also folds newlines and tabs into spaces. */
export function sanitizeInline(text: string): string {
  return sanitize(text).replace(/[\n\t]+/g, ' ');
}

/** Sanitizes every string inside a value (for printing records from the service as text). */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === 'string') return sanitize(value) as T;
  if (Array.isArray(value)) return value.map((v) => sanitizeDeep(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[sanitizeInline(k)] = sanitizeDeep(v);
    return out as T;
  }
  return value;
}
