import { fetch as undiciFetch } from 'undici';
import { type RetryOptions, withRetry } from '../../simulator/contract/retry-policy.ts';
import { readCapped, withDefaults } from './capped-body.ts';
import {
  type ClientStats,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_STREAM_BYTES,
  type FetchLike,
  type KitClient,
  type KitClientOptions,
  type SendRequest,
} from './client-types.ts';
import type { Exchange } from './exchange.ts';
import { gated, openRetried, paceGate } from './pace-gate.ts';
import { fetchWithoutLeaks } from './redirects.ts';
import { notAStream, type SseSession, type StreamBodyLike, sseSession } from './sse-stream.ts';

export { readCapped } from './capped-body.ts';
export { ConnectionError, RequestCancelled } from './client-errors.ts';

/** A request that failed because its kept-alive connection was closed under it, before any answer. */
const STALE_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);
function staleConnection(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' && STALE_CODES.has(cause.code);
}

import { ConnectionError, describeCause, RequestCancelled } from './client-errors.ts';

export type {
  ClientStats,
  FetchLike,
  KitClient,
  KitClientOptions,
  RequestInitLike,
  ResponseLike,
  SendRequest,
} from './client-types.ts';
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_STREAM_BYTES } from './client-types.ts';
export type { Exchange } from './exchange.ts';

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
      // Redirects by hand: a request carrying credentials is not carried to another origin (redirects.ts).
      const send = () =>
        fetchWithoutLeaks(doFetch, req.url, {
          method: req.method,
          headers,
          ...(req.body !== undefined ? { body: req.body } : {}),
          signal: abort.signal,
        });
      // A kept-alive connection the server closed as idle while the kit was busy fails the next request sent on
      // it before any answer: a request safe to repeat is sent once more on a new one (RFC 9112 §9.3.1): a safe
      // method, a call under an Idempotency-Key (the interface makes its repeat safe), a client-credentials grant.
      const resendable =
        cancellable ||
        Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key') ||
        (typeof req.body === 'string' && /(?:^|&)grant_type=client_credentials(?:&|$)/.test(req.body));
      const res = await send().catch((err: unknown) => {
        if (!resendable || abort.signal.aborted || !staleConnection(err)) throw err;
        return send();
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
      startedAt: performance.timeOrigin + started,
      attempts,
      ...(capped ? { bodyCappedAt: stats.maxBodyBytes } : {}),
    };
  }

  // One pause for every request of the client: a 429's Retry-After holds them all (pace-gate.ts).
  const gate = paceGate(
    opts.retry ? (opts.retry.maxWaitMs ?? 60_000) : 60_000,
    undefined,
    undefined,
    (opts.retry ? opts.retry.random : undefined) ?? Math.random,
  );
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
            heldSince: gate.heldSince,
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
