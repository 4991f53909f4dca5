// The response envelope of every answer (docs/emulator.md "The service in short").
/** The service version every envelope carries. */
export const SERVICE_VERSION = '1.0.0';

export interface Envelope {
  success: boolean;
  message: string;
  data: unknown;
  code: number;
  version: string;
  count?: number;
  [field: string]: unknown;
}

export function envelope(
  status: number,
  message: string,
  data: unknown,
  extra: { count?: number; fields?: Record<string, unknown> } = {},
): Envelope {
  const env: Envelope = {
    success: status < 400,
    message,
    data: data === undefined ? null : data,
    code: status,
    version: SERVICE_VERSION,
  };
  if (extra.count !== undefined) env.count = extra.count;
  if (extra.fields) {
    for (const [k, v] of Object.entries(extra.fields)) if (!(k in env)) env[k] = v;
  }
  return env;
}
