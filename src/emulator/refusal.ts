// Every refusal of the emulator is thrown as an EmulatorRefusal and turned into the service's
// envelope in one place (the pipeline), so handlers never write HTTP themselves.

export class EmulatorRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Goes to the envelope's `data` (null when absent). */
    readonly data: unknown = null,
    /** Extra response headers (Retry-After, WWW-Authenticate, Allow). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'EmulatorRefusal';
  }
}

export const refuse = (
  status: number,
  message: string,
  data: unknown = null,
  headers: Record<string, string> = {},
): never => {
  throw new EmulatorRefusal(status, message, data, headers);
};

export const isRefusal = (err: unknown): err is EmulatorRefusal => err instanceof EmulatorRefusal;
