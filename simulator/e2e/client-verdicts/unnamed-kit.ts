import { connect } from 'node:net';
import { CURRENT_VERSION } from '../../contract/versions.ts';
import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { clientTimer, sleepOn, type Target } from '../harness.ts';
import { silenceWatch } from './silence.ts';

/** What the unnamed clients share: plain calls with a token, raw HTTP/1.0, a stream reader, a fault. */
export interface Auth {
  token: string;
  tenant: string;
}

export interface Reply {
  status: number;
  json: any;
  retryAfterMs: number;
}

export interface CallOpts {
  body?: unknown;
  /** Raw body text, sent as is (another serialisation of the same content). */
  raw?: string;
  key?: string;
  headers?: Record<string, string>;
  /** Service-Version sent (default the current one; null sends none). */
  version?: string | null;
  timeoutMs?: number;
}

export const fault = (t: Target, f: Parameters<Target['sandbox']['control']['addFault']>[0]) =>
  t.sandbox.control.addFault(f);

/**
 * One call of the public interface (path below /api/public/v1); status 0 for no answer.
 * @example const r = await api(t, auth, 'GET', '/providers');
 */
export async function api(t: Target, auth: Auth, method: string, path: string, o: CallOpts = {}): Promise<Reply> {
  const body = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  // The client's own timeout runs on the sandbox clock (clientTimer): it gives up on a held call at
  // exactly timeoutMs, never on an unheld one however slow the machine. 30 s of real time guard a hang.
  const gaveUp = new AbortController();
  try {
    const sent = t.fetch(`${t.baseUrl}/api/public/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${auth.token}`,
        'x-service-tenant': auth.tenant,
        ...(o.version === null ? {} : { 'service-version': o.version ?? CURRENT_VERSION }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(o.key ? { 'idempotency-key': o.key } : {}),
        ...o.headers,
      },
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.any([gaveUp.signal, AbortSignal.timeout(30_000)]),
    });
    if (o.timeoutMs !== undefined)
      void clientTimer(t, o.timeoutMs, sent).then((timedOut) => timedOut && gaveUp.abort());
    const res = await sent;
    const json = await res.json().catch(() => undefined);
    return { status: res.status, json, retryAfterMs: Number(res.headers.get('retry-after') ?? 0) * 1000 };
  } catch {
    return { status: 0, json: undefined, retryAfterMs: 0 };
  }
}

/**
 * Retries one operation: `waits[n]` before attempt n + 2 (ms on the sandbox clock of `t`, advanced, not
 * slept; or a function of the answer), at most
 * waits.length + 1 attempts, while `retry(status)`; `key(n)` is the Idempotency-Key of attempt n.
 */
export async function withWaits(
  t: Target,
  attempt: (n: number) => Promise<Reply>,
  waits: ((r: Reply) => number)[] | number[],
  retry: (s: number) => boolean = (s) => s === 0 || s === 429 || s >= 500,
): Promise<Reply> {
  let r = await attempt(0);
  for (let n = 0; n < waits.length && retry(r.status); n++) {
    const w = waits[n];
    await sleepOn(t, typeof w === 'function' ? w(r) : (w ?? 0));
    r = await attempt(n + 1);
  }
  return r;
}

/** One call over its own socket as HTTP/1.0 (no keep-alive, no chunking): status and parsed body. */
export function http10(t: Target, auth: Auth, method: string, path: string, o: CallOpts = {}): Promise<Reply> {
  const url = new URL(`${t.baseUrl}/api/public/v1${path}`);
  const body = o.body === undefined ? '' : JSON.stringify(o.body);
  const head = [
    `${method} ${url.pathname}${url.search} HTTP/1.0`,
    `Host: ${url.host}`,
    `Authorization: Bearer ${auth.token}`,
    `X-Service-Tenant: ${auth.tenant}`,
    `Service-Version: ${CURRENT_VERSION}`,
    ...(o.key ? [`Idempotency-Key: ${o.key}`] : []),
    ...(body ? ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`] : []),
  ];
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('connect', () => socket.end(`${head.join('\r\n')}\r\n\r\n${body}`));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => resolve({ status: 0, json: undefined, retryAfterMs: 0 }));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      const ra = /\r\nretry-after: (\d+)/i.exec(text)?.[1];
      let json: unknown;
      try {
        json = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
      } catch {}
      resolve({ status, json, retryAfterMs: Number(ra ?? 0) * 1000 });
    });
  });
}

/**
 * Reads the tenant's stream once: from `cursor` (sent as Last-Event-ID, or as ?cursor= when `asQuery`),
 * until it ends, `count` ids were read, or nothing came for `idleMs`. `onOpen` runs once it is open.
 */
export async function readStream(
  t: Target,
  auth: Auth | undefined,
  o: {
    cursor?: number;
    asQuery?: boolean;
    count?: number;
    idleMs?: number;
    headers?: Record<string, string>;
    onOpen?: () => void;
    /** Told the reconnection delay the stream's `retry:` field gives. */
    onRetry?: (ms: number) => void;
    /** Told the status and Retry-After (ms) of an answer that is no stream (a 503 while the server restarts). */
    onRefused?: (status: number, retryAfterMs: number) => void;
  } = {},
): Promise<number[]> {
  const q = o.cursor !== undefined && o.asQuery ? `?cursor=${o.cursor}` : '';
  const res = await t.fetch(`${t.baseUrl}/api/public/v1/stream${q}`, {
    headers: {
      ...(auth ? { authorization: `Bearer ${auth.token}`, 'x-service-tenant': auth.tenant } : {}),
      'service-version': CURRENT_VERSION,
      ...(o.cursor !== undefined && !o.asQuery ? { 'last-event-id': String(o.cursor) } : {}),
      ...o.headers,
    },
  });
  const ids: number[] = [];
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => undefined);
    o.onRefused?.(res.status, Number(res.headers.get('retry-after') ?? 0) * 1000);
    return ids;
  }
  const reader = res.body?.getReader();
  if (!reader) return ids;
  o.onOpen?.();
  const decoder = new TextDecoder();
  let text = '';
  const idle = silenceWatch(o.idleMs ?? 1_500, () => void reader.cancel().catch(() => undefined));
  while (ids.length < (o.count ?? Number.POSITIVE_INFINITY)) {
    idle.heard();
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
    if (done) break;
    text += decoder.decode(value, { stream: true });
    for (let cut = text.indexOf('\n\n'); cut !== -1; cut = text.indexOf('\n\n')) {
      const m = /^id: (\d+)/m.exec(text.slice(0, cut));
      if (m) ids.push(Number(m[1]));
      const r = /^retry: (\d+)/m.exec(text.slice(0, cut));
      if (r) o.onRetry?.(Number(r[1]));
      text = text.slice(cut + 2);
    }
  }
  idle.stop();
  await reader.cancel().catch(() => undefined);
  return ids;
}

/** Publishes `n` order events for the tenant (numbered stream messages). */
export function publish(t: Target, tenant: string, n: number) {
  for (let i = 0; i < n; i++) t.sandbox.control.trigger({ event: i % 2 ? 'order.paid' : 'order.created', tenant });
}

/** Full jitter with a fixed cycle of draws: a legal schedule whose draws are reproducible. */
export function draws(values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length] ?? 0;
}

/**
 * Five read operations a fault can target one after another: retry sequences over several operations, so a
 * busy machine delaying a few waits does not decide a verdict. @example for (const [route, path] of READS) ...
 */
export const READS = [
  ['listProviders', '/providers'],
  ['listConnectors', '/connectors'],
  ['listCapabilities', '/capabilities'],
  ['listConnections', '/connections'],
  ['listProviders', '/providers?category=pos'],
] as const;

export const CONNECTION = {
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: 'Harbour Kitchen Deck',
  capabilities: ['orders.read', 'payments.refund'],
};

/** A client that does something legal but unusual: it must get no `fail`, and `pass` on the rules named. */
export interface UnnamedClient {
  does: string;
  /** Rules that must pass (they were exercised). */
  pass: string[];
  run(t: Target): Promise<void>;
}

export const auth = (t: Target, client?: string, ttl?: number): Auth => t.sandbox.issueToken(client, ttl);
export const create = (t: Target, a: Auth, key: string, body: object = CONNECTION) =>
  api(t, a, 'POST', '/connections', { body, key });
/** The guidance's schedule on a 400 ms base: base * 2^n plus a draw of up to 150 ms. */
export const guidance = (random: () => number) => (n: number) => () => 400 * 2 ** n + Math.floor(random() * 150);

/** A well-behaved client of the second round, with the sandbox options it needs (if any). */
export interface UnnamedClient2 extends UnnamedClient {
  options?: SandboxOptions;
}
