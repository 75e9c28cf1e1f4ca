// The alternative target's call to the simulator behind it, in process: the proxy hands the simulator's core
// the plain request its node:http listener would have built from the forwarded call, and reads the plain
// answer. A second HTTP hop per call (undici's request, the simulator's parser and writes, a socket per
// stream) was about a third of an alternative deployment's kit run; the kit still talks HTTP to the proxy.
import type { ServerResponse } from 'node:http';
import type { CoreHandler, PlainRequest, PlainResponse, StreamSink } from '../../simulator/core/types.ts';
import { stopStream } from '../../simulator/index.ts';

/** A call as the proxy forwards it: its path, query and headers already in the simulator's terms. */
export interface UpstreamCall {
  method: string;
  path: string;
  search: URLSearchParams;
  /** Lower-case names (node:http's), without host and content-length. */
  headers: Record<string, string>;
  body?: string;
}

/** The simulator listener's body limit (`serve`'s default maxBodyBytes). */
const MAX_BODY_BYTES = 1024 * 1024;

/** What fetch adds where the caller named none (as the forwarded call carried them over HTTP before). */
const FETCH_DEFAULTS: readonly (readonly [string, string])[] = [
  ['accept', '*/*'],
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
  ['user-agent', 'node'],
  ['accept-encoding', 'gzip, deflate'],
];

/**
 * The simulator's answer to `call`, as its listener at `origin` would give it.
 * @example const answer = await callCore(sim.sandbox.core, sim.baseUrl, { method: 'GET', path: BASE_PATH, search: new URLSearchParams(), headers: {} });
 */
export function callCore(core: CoreHandler, origin: string, call: UpstreamCall): Promise<PlainResponse> {
  const method = call.method.toUpperCase();
  const headers: Record<string, string> = { ...call.headers };
  const body = call.body !== undefined && method !== 'GET' && method !== 'HEAD' ? Buffer.from(call.body) : undefined;
  if (call.body !== undefined) headers['content-type'] ??= 'text/plain;charset=UTF-8';
  for (const [name, value] of FETCH_DEFAULTS) headers[name] ??= value;
  headers.host = new URL(origin).host;
  if (body) headers['content-length'] = String(body.length);
  // No prototype, repeated names as lists: as the listener reads a query string.
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of call.search) {
    const prev = query[k];
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  const plain: PlainRequest = { method, path: call.path, query, headers, origin, clientAddress: '127.0.0.1' };
  // Over the listener's limit (serve's default): refused by the core as the listener would have it refused.
  if (body && body.length > MAX_BODY_BYTES) plain.bodyTooLarge = true;
  else if (body?.length) plain.body = body;
  return core.handle(plain);
}

/** A body the core answers with none: HEAD, 1xx, 204, 205, 304 (fetch gives them no body either). */
export const bodyless = (method: string, status: number) =>
  method.toUpperCase() === 'HEAD' || [101, 103, 204, 205, 304].includes(status);

/**
 * Writes a text answer through `rewrite` as whole lines (a partial last line rewritten on its own), then ends.
 * @example writeLines(res, answer.body ?? '', (lines) => lines.replaceAll(a, b));
 */
export function writeLines(res: ServerResponse, text: string, rewrite: (lines: string) => string): void {
  const cut = text.lastIndexOf('\n') + 1;
  if (cut > 0) res.write(rewrite(text.slice(0, cut)));
  res.end(rewrite(text.slice(cut)));
}

/**
 * Pipes a streamed answer (SSE) to `res` through `rewrite`, whole lines at a time (a partial line waits for
 * the next chunk); the stream stops when the client goes, and `res` ends when the stream does.
 * @example if (answer.stream) pipeStream(answer.stream, res, (lines) => frameStream(lines, wire));
 */
export function pipeStream(
  source: NonNullable<PlainResponse['stream']>,
  res: ServerResponse,
  rewrite: (lines: string) => string,
): void {
  let rest = '';
  const sink: StreamSink = {
    // Always taken, as the proxy read its upstream before as fast as it came, whatever the client read.
    write(chunk) {
      if (res.destroyed) return true;
      rest += chunk;
      const cut = rest.lastIndexOf('\n') + 1;
      if (cut > 0) res.write(rewrite(rest.slice(0, cut)));
      rest = rest.slice(cut);
      return true;
    },
    end() {
      if (!res.destroyed) res.end(rewrite(rest));
    },
  };
  const stop = source.open(sink);
  res.on('close', () => stopStream(stop));
}
