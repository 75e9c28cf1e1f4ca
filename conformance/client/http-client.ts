import { fetch as undiciFetch } from 'undici';
import { withRetry, type RetryOptions } from '../../simulator/contract/retry-policy.ts';
import type { Exchange } from './exchange.ts';
import { notAStream, sseSession, type SseSession, type StreamBodyLike } from './sse-stream.ts';

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
}

/** The target could not be reached or did not answer in time: not a verdict about the contract. */
export class ConnectionError extends Error {
  readonly url: string;
  constructor(url: string, message: string) {
    super(message);
    this.name = 'ConnectionError';
    this.url = url;
  }
}

export interface KitClientOptions {
  /** Default: the undici package's fetch. Pass globalThis.fetch to run in-process against MSW handlers. */
  fetch?: FetchLike;
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
  /** The interface's retry policy and its injectable sleep/random; false switches retries off. */
  retry?: RetryOptions | false;
  onExchange?: (ex: Exchange) => void;
}

export interface KitClient {
  send(req: SendRequest): Promise<Exchange>;
  /**
   * Opens an event stream (no retries): the session reads messages as they come. An answer that is
   * not an event stream is read whole into the exchange and the session has no events.
   */
  openStream(req: SendRequest): Promise<SseSession>;
}

function describeCause(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (err as Error)?.message ?? String(err);
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

  async function once(req: SendRequest, headers: Record<string, string>) {
    const timeoutMs = req.timeoutMs ?? defaultTimeout;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
      const res = await doFetch(req.url, {
        method: req.method,
        headers,
        ...(req.body !== undefined ? { body: req.body } : {}),
        signal: abort.signal,
      });
      const responseHeaders = lowerCaseHeaders(res.headers);
      let text = '';
      if (req.readBody === false) {
        await res.body?.cancel().catch(() => undefined);
        abort.abort();
      } else {
        text = await res.text();
      }
      return { status: res.status, headers: res.headers, responseHeaders, text };
    } catch (err) {
      if (abort.signal.aborted)
        throw new ConnectionError(req.url, `no complete answer from ${req.method} ${req.url} within ${timeoutMs} ms`);
      throw new ConnectionError(req.url, `cannot reach ${req.url}: ${describeCause(err)}`);
    } finally {
      clearTimeout(timer);
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
    };
  }

  async function openStream(req: SendRequest): Promise<SseSession> {
    const headers = { accept: 'text/event-stream', ...req.headers };
    const started = performance.now();
    const timeoutMs = req.timeoutMs ?? defaultTimeout;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
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
        return sseSession(ex, body as StreamBodyLike, () => abort.abort());
      }
      const ex = exchangeOf(req, headers, res.status, responseHeaders, await res.text(), started, 1);
      opts.onExchange?.(ex);
      return notAStream(ex);
    } catch (err) {
      if (abort.signal.aborted)
        throw new ConnectionError(req.url, `no answer from ${req.method} ${req.url} within ${timeoutMs} ms`);
      throw new ConnectionError(req.url, `cannot reach ${req.url}: ${describeCause(err)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    openStream,
    async send(req) {
      const headers = { ...req.headers };
      const started = performance.now();
      const retrying = req.retry !== false && opts.retry !== false;
      const { result, attempts } = retrying
        ? await withRetry(() => once(req, headers), opts.retry || {})
        : { result: await once(req, headers), attempts: 1 };
      const ex = exchangeOf(req, headers, result.status, result.responseHeaders, result.text, started, attempts);
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
