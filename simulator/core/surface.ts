import type { PlainRequest, PlainResponse } from './types.ts';

/** What a surface gets besides the request. */
export interface SurfaceContext {
  requestId: string;
  /** Arrival time on the simulator clock (ms). */
  at: number;
}

/**
 * A part of the simulator outside the public interface's pipeline, with its own paths and error format:
 * the OAuth authorization server (/oauth, /.well-known) and the sandbox control plane (/_sandbox).
 * The core tries surfaces before the public pipeline; a surface must answer every path it owns.
 */
export interface Surface {
  name: string;
  owns(path: string): boolean;
  handle(req: PlainRequest, ctx: SurfaceContext): PlainResponse | Promise<PlainResponse>;
}
