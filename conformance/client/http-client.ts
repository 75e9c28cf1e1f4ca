import { fetch as undiciFetch } from 'undici';
import { type RetryOptions, withRetry } from '../../simulator/contract/retry-policy.ts';
import { readCapped, withDefaults } from './capped-body.ts';
import type { Exchange } from './exchange.ts';
import { gated, openRetried, paceGate } from './pace-gate.ts';
import { notAStream, type SseSession, type StreamBodyLike, sseSession } from './sse-stream.ts';

export { readCapped } from './capped-body.ts';
export { ConnectionError, RequestCancelled } from './client-errors.ts';

import { ConnectionError, describeCause, RequestCancelled } from './client-errors.ts';

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
}

export type FetchLike = (url: string, init: RequestInitLike) => Promise<ResponseLike>;

export type { Exchange } from './exchange.ts';

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

/** Methods a cancelled request cannot have changed anything with: cut short at once when the run stops. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Aborts `abort` when `signal` fires; returns the unlink (a run's signal outlives its requests, so each
 * request takes its listener off again).
 */
function follow(signal: AbortSignal | undefined, abort: AbortController): () => void {
  if (!signal) return () => undefined;
  const onAbort = () => abort.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
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
  paced?: { times: number; longestMs: number };
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

function requestIdOf(json: unknown, headers: Record<string, string>): string | undefined {
  const fromBody = (json as { meta?: { requestId?: unknown } } | undefined)?.meta?.requestId;
  return typeof fromBody === 'string' && fromBody ? fromBody : headers['x-request-id'];
}

/**
 * The kit's HTTP client: records every exchange, applies the interface's retry policy, turns
 * network failures into ConnectionError.
 * @example const client = createKitClient({ fetch: globalThis.fetch }); const ex = await client.send({ method: 'GET', url });
 */
export function createKitClient(opts: KitClientOptions = {}): KitClient {
  const doFetch: FetchLike = opts.fetch ?? (undiciFetch as unknown as FetchLike);
  const defaultTimeout = opts.timeoutMs ?? 10_000;
  const defaults = opts.defaultHeaders ?? {};
  const stats: ClientStats = {
    cappedBodies: 0,
    cappedStreams: 0,
    maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxStreamBytes: opts.maxStreamBytes ?? DEFAULT_MAX_STREAM_BYTES,
  };

  async function once(req: SendRequest, headers: Record<string, string>) {
    const timeoutMs = req.timeoutMs ?? defaultTimeout;
    if (req.signal?.aborted) throw new RequestCancelled(req.url);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    // A modifying call already sent is answered, not cut: what it created is then known to its check,
    // which registers its removal (at run end) before its next call is refused.
    const cancellable = SAFE_METHODS.has(req.method.toUpperCase());
    const unfollow = cancellable ? follow(req.signal, abort) : () => undefined;
    try {
      const res = await doFetch(req.url, {
        method: req.method,
        headers,
        ...(req.body !== undefined ? { body: req.body } : {}),
        signal: abort.signal,
      });
      const responseHeaders = lowerCaseHeaders(res.headers);
      let text = '';
      let capped = false;
      if (req.readBody === false) {
        await res.body?.cancel().catch(() => undefined);
        abort.abort();
      } else {
        ({ text, capped } = await readCapped(res, stats.maxBodyBytes));
        if (capped) {
          stats.cappedBodies++;
          abort.abort();
        }
      }
      return { status: res.status, headers: res.headers, responseHeaders, text, capped };
    } catch (err) {
      if (cancellable && req.signal?.aborted) throw new RequestCancelled(req.url);
      if (abort.signal.aborted)
        throw new ConnectionError(req.url, `no complete answer from ${req.method} ${req.url} within ${timeoutMs} ms`);
      throw new ConnectionError(req.url, `cannot reach ${req.url}: ${describeCause(err)}`);
    } finally {
      clearTimeout(timer);
      unfollow();
    }
  }

  function exchangeOf(
    req: SendRequest,
    headers: Record<string, string>,
    status: number,
    responseHeaders: Record<string, string>,
    text: string,
    started: number,
    attempts: number,
    capped = false,
  ): Exchange {
    let json: unknown;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    const requestId = requestIdOf(json, responseHeaders);
    return {
      method: req.method,
      url: req.url,
      requestHeaders: headers,
      ...(req.body !== undefined ? { requestBody: req.body } : {}),
      status,
      headers: responseHeaders,
      text,
      json,
      ...(requestId ? { requestId } : {}),
      durationMs: performance.now() - started,
      attempts,
      ...(capped ? { bodyCappedAt: stats.maxBodyBytes } : {}),
    };
  }

  // One pause for every request of the client: a 429's Retry-After holds them all (pace-gate.ts).
  const gate = paceGate(opts.retry ? (opts.retry.maxWaitMs ?? 60_000) : 60_000);
  stats.paced = gate.held;

  async function openStream(req: SendRequest): Promise<SseSession> {
    let headers = req.headers;
    let n = 0;
    return openRetried(
      async () => {
        await gate.wait(req.signal);
        if (n++ > 0 && req.refresh) headers = { ...headers, ...(await req.refresh()) };
        return openOnce({ ...req, ...(headers ? { headers } : {}) });
      },
      (s) => s.ex,
      req.retry === false || opts.retry === false ? false : (opts.retry ?? {}),
      req.signal,
    );
  }

  async function openOnce(req: SendRequest): Promise<SseSession> {
    const headers = withDefaults({ ...req, headers: { accept: 'text/event-stream', ...req.headers } }, defaults);
    const started = performance.now();
    const timeoutMs = req.timeoutMs ?? defaultTimeout;
    if (req.signal?.aborted) throw new RequestCancelled(req.url);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    // An open stream keeps following the signal until the session closes.
    let unfollow: (() => void) | undefined = follow(req.signal, abort);
    try {
      const res = await doFetch(req.url, {
        method: req.method,
        headers,
        ...(req.body !== undefined ? { body: req.body } : {}),
        signal: abort.signal,
      });
      const responseHeaders = lowerCaseHeaders(res.headers);
      const body = res.body;
      // Any 2xx with a body is read as a stream (its content type is judged by a check, not here):
      // reading an endless body whole would only end in a timeout.
      if (res.status >= 200 && res.status < 300 && body?.getReader) {
        clearTimeout(timer);
        const ex = exchangeOf(req, headers, res.status, responseHeaders, '', started, 1);
        opts.onExchange?.(ex);
        const follows = unfollow;
        unfollow = undefined;
        return sseSession(
          ex,
          body as StreamBodyLike,
          () => {
            follows();
            abort.abort();
          },
          {
            maxBytes: stats.maxStreamBytes,
            onCapped: () => void stats.cappedStreams++,
          },
        );
      }
      const { text, capped } = await readCapped(res, stats.maxBodyBytes);
      if (capped) stats.cappedBodies++;
      const ex = exchangeOf(req, headers, res.status, responseHeaders, text, started, 1, capped);
      opts.onExchange?.(ex);
      return notAStream(ex);
    } catch (err) {
      if (req.signal?.aborted) throw new RequestCancelled(req.url);
      if (abort.signal.aborted)
        throw new ConnectionError(req.url, `no answer from ${req.method} ${req.url} within ${timeoutMs} ms`);
      throw new ConnectionError(req.url, `cannot reach ${req.url}: ${describeCause(err)}`);
    } finally {
      clearTimeout(timer);
      unfollow?.();
    }
  }

  return {
    openStream,
    stats,
    async send(req) {
      const headers = withDefaults(req, defaults);
      const started = performance.now();
      const retrying = req.retry !== false && opts.retry !== false;
      const attempt = async (n: number) => {
        if (n > 0 && req.refresh) Object.assign(headers, await req.refresh());
        return once(req, headers);
      };
      const { result, attempts } = retrying
        ? await withRetry((n) => gated(gate, () => attempt(n), true, req.signal), opts.retry || {})
        : { result: await gated(gate, () => attempt(0), false, req.signal), attempts: 1 };
      const ex = exchangeOf(
        req,
        headers,
        result.status,
        result.responseHeaders,
        result.text,
        started,
        attempts,
        result.capped,
      );
      opts.onExchange?.(ex);
      return ex;
    },
  };
}

/** Response headers as a plain object with lower-case names. */
function lowerCaseHeaders(headers: {
  forEach(cb: (value: string, name: string) => void): void;
}): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
}
