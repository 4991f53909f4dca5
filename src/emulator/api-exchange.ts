// A method call as the pipeline (pipeline.ts) and the GET addresses (discovery.ts) see it,
// apart from node:http: the request they read and the answer they give. server.ts adapts
// both to node:http.
import type { IncomingHttpHeaders } from 'node:http';
import type { Envelope } from './envelope.js';

export interface ApiRequest {
  verb: string;
  url: URL;
  rawUrl: string;
  headers: IncomingHttpHeaders;
  /** Reads the whole body within the size limit (at most `bytesPerSecond`, a fault); throws EmulatorRefusal 413. */
  readBody(bytesPerSecond?: number): Promise<Buffer>;
}

export interface ApiAnswer {
  status: number;
  body: Envelope;
  headers: Record<string, string>;
  /** Cut the connection halfway through writing the answer. */
  drop?: boolean;
}
