// The test proxies' call to the simulator behind them: undici's request with what Node's fetch would have
// sent and handed back, at a third of fetch's CPU per call (the proxies forward every call of a kit run;
// WHATWG streams and Request/Response objects were the largest cost of an alternative deployment's run).
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { type Dispatcher, request } from 'undici';

/** The part of a fetch Response the proxies read. */
export interface ForwardedResponse {
  status: number;
  headers: { get(name: string): string | null; forEach(cb: (value: string, name: string) => void): void };
  /** null where fetch gives none: HEAD, 1xx, 204, 205, 304. */
  body: Readable | null;
  text(): Promise<string>;
}

export interface ForwardInit {
  method: string;
  /** Names in any letter case: they go out as given, as fetch sends them. */
  headers: Record<string, string>;
  body?: string;
  /** 'manual': a 3xx is handed back; otherwise (fetch's 'follow') a 3xx is refused, as no caller here expects one. */
  redirect?: 'manual';
  signal?: AbortSignal;
  /** The undici dispatcher (default: the global one). */
  dispatcher?: Dispatcher;
  /** What fetch sends as User-Agent: 'node' for Node's own fetch, 'undici' for the undici package's. */
  userAgent?: string;
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** fetch normalises these methods to upper case and sends any other as given. */
const NORMALISED = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

/**
 * The request headers as fetch puts them on the wire: the caller's in its order and letter case (values
 * trimmed, a name repeated in another case joined to the first), Content-Length left to the
 * transport, then what fetch adds where the caller named none, in the order it adds them.
 */
function withFetchDefaults(given: Record<string, string>, hasBody: boolean, userAgent: string): Record<string, string> {
  const out: Record<string, string> = {};
  const named = new Map<string, string>();
  for (const [name, raw] of Object.entries(given)) {
    const lower = name.toLowerCase();
    if (lower === 'content-length') continue;
    const value = raw.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    const first = named.get(lower);
    if (first !== undefined) out[first] = `${out[first]}, ${value}`;
    else {
      named.set(lower, name);
      out[name] = value;
    }
  }
  const add = (name: string, value: string) => {
    if (!named.has(name)) out[name] = value;
  };
  if (hasBody) add('content-type', 'text/plain;charset=UTF-8');
  add('accept', '*/*');
  add('accept-language', '*');
  add('sec-fetch-mode', 'cors');
  add('user-agent', userAgent);
  add('accept-encoding', 'gzip, deflate');
  return out;
}

/** fetch's Headers view of the answer: names sorted, repeated values joined with ", " (set-cookie one by one). */
function headersView(raw: Record<string, string | string[] | undefined>): ForwardedResponse['headers'] {
  const entries: [string, string][] = [];
  for (const name of Object.keys(raw).sort()) {
    const value = raw[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (name === 'set-cookie') for (const v of value) entries.push([name, v]);
      else entries.push([name, value.join(', ')]);
    } else entries.push([name, value]);
  }
  return {
    get: (name) => {
      const lower = name.toLowerCase();
      const found = entries.filter(([k]) => k === lower).map(([, v]) => v);
      return found.length ? found.join(', ') : null;
    },
    forEach: (cb) => {
      for (const [k, v] of entries) cb(v, k);
    },
  };
}

/** What fetch would decode: gzip, deflate and br bodies come out decompressed. */
function decoded(body: Readable, encoding: string | null): Readable {
  const coding = encoding?.trim().toLowerCase();
  if (coding === 'gzip' || coding === 'x-gzip') return body.pipe(createGunzip());
  if (coding === 'deflate') return body.pipe(createInflate());
  if (coding === 'br') return body.pipe(createBrotliDecompress());
  // Anything else fetch would decode (several codings, zstd) no simulator here sends: refused, not passed on raw.
  if (coding && coding !== 'identity') throw new Error(`forwardFetch does not decode content-encoding ${coding}`);
  return body;
}

/**
 * Calls `url` as Node's fetch would (same request headers, same answer headers), without its streams.
 * @example const upstream = await forwardFetch(`${sim.baseUrl}/api/public/v1`, { method: 'GET', headers: {} });
 */
export async function forwardFetch(url: string, init: ForwardInit): Promise<ForwardedResponse> {
  let res: Awaited<ReturnType<typeof request>>;
  try {
    const upper = init.method.toUpperCase();
    res = await request(url, {
      method: (NORMALISED.has(upper) ? upper : init.method) as never,
      headers: withFetchDefaults(init.headers, init.body !== undefined, init.userAgent ?? 'node'),
      ...(init.body !== undefined ? { body: init.body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
      ...(init.dispatcher ? { dispatcher: init.dispatcher } : {}),
    });
  } catch (err) {
    throw new TypeError('fetch failed', { cause: err });
  }
  const headers = headersView(res.headers);
  if (init.redirect !== 'manual' && res.statusCode >= 300 && res.statusCode < 400 && headers.get('location')) {
    res.body.resume();
    throw new Error(`forwardFetch does not follow redirects (${init.method} ${url} answered ${res.statusCode})`);
  }
  const empty = init.method === 'HEAD' || NULL_BODY.has(res.statusCode);
  if (empty) res.body.resume();
  const body = empty ? null : decoded(res.body, headers.get('content-encoding'));
  return {
    status: res.statusCode,
    headers,
    body,
    async text() {
      if (!body) return '';
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      // As fetch's text(): UTF-8 with a leading byte-order mark dropped.
      return Buffer.concat(chunks)
        .toString('utf8')
        .replace(/^\uFEFF/, '');
    },
  };
}
