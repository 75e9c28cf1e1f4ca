import type { ErrorCode } from '../contract/errors.ts';
import type { ApiErrorOptions } from './api-error.ts';

/** A transport-neutral request: what every adapter hands to the core. Header names are lower-case. */
export interface PlainRequest {
  method: string;
  /** Decoded path without query string, e.g. /api/public/v1/providers. */
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** Set by an adapter that stopped reading a body over its size limit; the core answers 400. */
  bodyTooLarge?: boolean;
  /** Scheme, host and port the client addressed, e.g. http://127.0.0.1:4010 (absolute URLs such as the OAuth issuer). */
  origin?: string;
  /** The client's network address, when the transport has one (per-address stream limits). */
  clientAddress?: string;
  /**
   * Set by adapters that can tell: `at` becomes the time (ms since epoch) the client went away before
   * its answer was complete (it gave up: its own timeout), 0 while it waits. The client verdicts tell a
   * retry after a timeout from a parallel call by it. A plain object, not an AbortSignal: no listener per call.
   * `clock`, when a step sets it, is what `at` is read from (the observer hands over the sandbox clock, so a
   * give-up is timed like the calls); else real time.
   */
  clientGone?: {
    at: number;
    clock?: (() => number) | undefined;
    /** Called by the adapter when it sets `at` (the observer notes a call the client gave up on while it is still held). */
    onGone?: (() => void) | undefined;
  };
  /**
   * Set by adapters with connections (node:http): the number of the connection the request came on
   * (counted from 1 as the server accepts them), whether it is that connection's first request, and
   * how many connections the server has accepted so far (read when the answer leaves). A call that is
   * the first on a connection opened before another call's answer left was sent before its client had
   * that answer: the client verdicts tell parallel calls from retries by it. `acceptedAt`: on a first request,
   * when the server accepted the connection, on the clock the server was given (the sandbox's; a pool's
   * connection opened ahead of need lies idle before it).
   */
  connection?: { id: number; first: boolean; opened(): number; acceptedAt?: number };
}

/**
 * Told when the client has taken what was buffered: a function, or an object whose `drained()` is called
 * (an open stream registers itself, so it keeps no closure for it). Call it with `drainedTo(target)`.
 */
export type DrainTarget = (() => void) | { drained(): void };

/** Receives the chunks of a streamed response (SSE); `write` returns false when the client is not keeping up. */
export interface StreamSink {
  write(chunk: string): boolean;
  end(): void;
  /** Registers what to tell when the client has taken what was buffered (after write returned false). */
  onDrain?(target: DrainTarget): void;
}

/**
 * How to stop an opened stream: a function, or an object whose `stop()` does it (one object per open
 * stream rather than a closure). Stop it with `stopStream(stop)`.
 */
export type StreamStop = (() => void) | { stop(): void };

/** A response body produced over time. `open` starts it and returns how to stop it. */
export interface StreamSource {
  open(sink: StreamSink): StreamStop;
}

/** A transport-neutral response: what the core returns to every adapter. */
export interface PlainResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
  stream?: StreamSource;
  /** Drop the connection instead of answering (a fault: the client sees a transport failure). */
  abort?: boolean;
}

/**
 * What a transport adapter needs of the simulator: answer a request, or answer one it could not read.
 * @example const res = await core.handle({ method: 'GET', path: '/api/public/v1', query: {}, headers: {} });
 */
export interface CoreHandler {
  /** Answers one plain request. Never throws. */
  handle(req: PlainRequest): Promise<PlainResponse>;
  /**
   * A failure envelope for a request the transport could not even read (oversized headers, timeouts), or
   * one refused in front of the pipeline; `extra` gives its own hint or headers (an `Allow`).
   */
  reject(code: ErrorCode, detail: string, extra?: Pick<ApiErrorOptions, 'hint' | 'headers'>): PlainResponse;
}

/** What the core learned about a call besides request and response: who made it, when, how long it took. */
export interface ExchangeInfo {
  requestId: string;
  /** Wall-clock arrival, ms since epoch. */
  startedAt: number;
  durationMs: number;
  tenant?: string;
  clientId?: string;
}
