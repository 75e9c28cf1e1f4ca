// The kit's HTTP client's shapes: what it sends and reads, its options and what it counts (the client
// itself is http-client.ts, which re-exports these).
import type { RetryOptions } from '../../simulator/contract/retry-policy.ts';
import type { Exchange } from './exchange.ts';
import type { SseSession, StreamBodyLike } from './sse-stream.ts';

/** The part of a fetch Response the kit reads (undici's and the global one both fit). */
export interface ResponseLike {
  status: number;
  headers: { forEach(cb: (value: string, name: string) => void): void; get(name: string): string | null };
  text(): Promise<string>;
  body?: ({ cancel(reason?: unknown): Promise<void> } & Partial<StreamBodyLike>) | null;
}

export interface RequestInitLike {
  method: string;
  /** A plain object, so header names go out in the letter case given (fetch keeps it on the wire). */
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Always 'manual' from the kit: redirects are followed by hand, same origin only (redirects.ts). */
  redirect?: 'manual';
}

export type FetchLike = (url: string, init: RequestInitLike) => Promise<ResponseLike>;

export interface SendRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Apply the interface's retry policy (default true). */
  retry?: boolean;
  /** false: stop after the headers and cancel the body (event streams). Default true. */
  readBody?: boolean;
  timeoutMs?: number;
  /** Leave out the client's default headers (e.g. Service-Version) unless the request names them itself. */
  omitDefaultHeaders?: boolean;
  /**
   * The run stopping early (--max-failures): a request asked for after it fired is refused
   * (RequestCancelled); a GET, HEAD or OPTIONS on its way and an open stream end at it; a modifying call
   * already sent is answered, so what it created is known and can be removed.
   */
  signal?: AbortSignal;
  /** Headers to send anew on each retry (a token renewed while the request waited out a Retry-After). */
  refresh?: () => Promise<Record<string, string>>;
}

export interface KitClientOptions {
  /** Default: the undici package's fetch. Pass globalThis.fetch to run in-process against MSW handlers. */
  fetch?: FetchLike;
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
  /** The interface's retry policy and its injectable sleep/random; false switches retries off. */
  retry?: RetryOptions | false;
  onExchange?: (ex: Exchange) => void;
  /**
   * Sent on every request unless the request names the header itself (any letter case), e.g.
   * Service-Version: the interface's sample calls send it and it may be mandatory.
   */
  defaultHeaders?: Record<string, string>;
  /** Bytes of a response body the kit reads at most (default 2 MiB); more is cut and counted. */
  maxBodyBytes?: number;
  /** Bytes of one event stream the kit reads at most (default 4 MiB); then it stops reading. */
  maxStreamBytes?: number;
}

/** What the client had to cut: the report says so instead of growing without bound. */
export interface ClientStats {
  /** Answers whose body was longer than maxBodyBytes. */
  cappedBodies: number;
  /** Event streams the kit stopped reading at maxStreamBytes. */
  cappedStreams: number;
  maxBodyBytes: number;
  maxStreamBytes: number;
  /** 429s that held every call for their Retry-After, and the longest hold (ms). */
  paced?: { times: number; longestMs: number; ignored?: number; longestIgnoredMs?: number };
}

export const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;
export const DEFAULT_MAX_STREAM_BYTES = 4 * 1024 * 1024;

export interface KitClient {
  send(req: SendRequest): Promise<Exchange>;
  /**
   * Opens an event stream (no retries): the session reads messages as they come. An answer that is
   * not an event stream is read whole into the exchange and the session has no events.
   */
  openStream(req: SendRequest): Promise<SseSession>;
  /** What was cut so far (live counts). */
  readonly stats?: ClientStats;
}
