// Test helpers of the shared-sandbox suites: `ncs serve --store redis://…` replicas as child
// processes, replicas in the test's own process (the library's serve() on the same store), and plain
// calls against them.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { type ServeOptions, serve } from '../../app/serve.ts';
import { NCS_BIN, type ReadyInfo, waitForReadyFile } from '../ready-file.ts';

// Idle sockets are dropped by the client well before the server's 5 s keep-alive ends them, so a
// call never goes out on a socket the server is closing (1,000-way bursts leave hundreds idle).
const dispatcher = new Agent({ keepAliveTimeout: 1000, connections: 128 });

export const ADMIN_TOKEN = 'ncs_admin_shared-suite-0001';

export interface Replica {
  info: ReadyInfo;
  child: ChildProcess;
  /** What it printed on stderr (internal errors). */
  stderr(): string;
  /** SIGKILL: a replica dying mid-work. */
  kill(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

/**
 * One `ncs serve` on the shared store, listening on a free loopback port.
 * @example const a = await startReplica(redis.url); await fetch(`${a.info.baseUrl}/api/public/v1`);
 */
export async function startReplica(store: string, extra: string[] = []): Promise<Replica> {
  const dir = mkdtempSync(join(tmpdir(), 'ncs-replica-'));
  const readyFile = join(dir, 'ready.json');
  const child = spawn(
    process.execPath,
    [
      NCS_BIN,
      'serve',
      '--port',
      '0',
      '--store',
      store,
      '--admin-token',
      ADMIN_TOKEN,
      '--ready-file',
      readyFile,
      '--quiet',
      '--no-inspector',
      ...extra,
    ],
    { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr?.on('data', (c) => (err += c));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  let info: ReadyInfo;
  try {
    info = await Promise.race([
      waitForReadyFile(readyFile, { timeoutMs: 45_000 }),
      exited.then(() => {
        throw new Error(`ncs serve exited before it was ready: ${err}`);
      }),
    ]);
  } catch (e) {
    await end('SIGKILL');
    throw e;
  }
  return { info, child, stderr: () => err, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}

/** A replica the test only calls and stops (neither signalled nor read on stderr). */
export type PlainReplica = Pick<Replica, 'info' | 'stop'>;

/**
 * A replica in this process: the library's serve() on the shared store, over real HTTP, with the
 * suite's admin token and without the inspector, as startReplica's. For a suite whose subject is the
 * state the replicas share, beside at least one replica in a process of its own (so the state still
 * crosses processes): a replica process costs ~0.8 s of CPU to start (Node, the bundle, the Redis client).
 * @example const b = await startLocalReplica(redis.url, { webhooks: { baseDelayMs: 300 } });
 */
export async function startLocalReplica(store: string, options: Partial<ServeOptions> = {}): Promise<PlainReplica> {
  const s = await serve({ port: 0, store, adminToken: ADMIN_TOKEN, inspector: false, ...options });
  return {
    info: { baseUrl: s.baseUrl, token: s.token, tenant: s.tenant, adminToken: s.sandbox.adminToken },
    stop: () => s.close(),
  };
}

/** An authenticated call of the public interface; answers status, headers and the parsed body. */
export async function call(
  base: string,
  token: string,
  tenant: string,
  path: string,
  init: { method?: string; body?: unknown; key?: string } = {},
): Promise<{ status: number; headers: { get(name: string): string | null }; json: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-service-tenant': tenant };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.key) headers['idempotency-key'] = init.key;
  const res = await fetch(`${base}/api/public/v1${path}`, {
    dispatcher,
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

/** A control-plane call with the suite's admin token. */
export async function control(base: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/_sandbox${path}`, {
    dispatcher,
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as any };
}

/** A token by client credentials from one replica's authorization server. */
export async function clientToken(base: string, clientId: string, secret: string): Promise<string> {
  const res = await fetch(`${base}/oauth/token`, {
    dispatcher,
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  const json = (await res.json()) as { access_token?: string };
  if (!json.access_token) throw new Error(`no token for ${clientId}: ${JSON.stringify(json)}`);
  return json.access_token;
}

/** A status stream held open: messages as they arrive, and whether the server ended it. */
export interface OpenStream {
  events: { id: string; event: string; data: string }[];
  /** Resolves when the server closes the stream. */
  ended: Promise<void>;
  /**
   * Waits until `n` messages arrived, or until `done(events)` holds. Bounded as a hang guard only (20 s:
   * with both cores busy, four creations' messages took over the 5 s this waited before, and the test
   * then judged a partial list); the caller's assertions give the verdict.
   */
  waitFor(n: number | ((events: OpenStream['events']) => boolean), timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function openStream(
  base: string,
  token: string,
  tenant: string,
  query = '',
  headers: Record<string, string> = {},
): Promise<OpenStream> {
  const { createParser } = await import('eventsource-parser');
  const abort = new AbortController();
  const res = await fetch(`${base}/api/public/v1/stream${query}`, {
    dispatcher,
    headers: { authorization: `Bearer ${token}`, 'x-service-tenant': tenant, ...headers },
    signal: abort.signal,
  });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream'))
    throw new Error(`no stream: ${res.status} ${await res.text()}`);
  const events: OpenStream['events'] = [];
  const parser = createParser({ onEvent: (e) => events.push({ id: e.id ?? '', event: e.event ?? '', data: e.data }) });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // closed by us
    }
  })();
  return {
    events,
    ended,
    async waitFor(n, timeoutMs = 20_000) {
      const done = typeof n === 'number' ? () => events.length >= n : () => n(events);
      const until = Date.now() + timeoutMs;
      while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    },
    async close() {
      abort.abort();
      await ended;
    },
  };
}
