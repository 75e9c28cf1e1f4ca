import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { serve } from '../../../simulator/app/serve.ts';
import { BASE_PATH } from '../../../simulator/contract/versions.ts';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ConformanceOptions } from '../../runner/options.ts';
import { pipeLines } from '../../test-support/pipe-lines.ts';
import { SIMULATOR_PROFILE, TWO_TENANT_CLIENT } from '../targets.ts';

/**
 * The unseen-violation proxy: the simulator behind a loopback HTTP proxy (both base URLs) that breaks
 * one statement of the interface in a way the kit was never shown (./violations-*.ts). It rewrites
 * requests, JSON answers, event streams and outgoing webhook deliveries; the simulator and the kit know
 * nothing of it. Test tooling only.
 */
export interface ProxyCall {
  method: string;
  /** Path without query. */
  path: string;
  search: URLSearchParams;
  /** Lower-case names; a hook may change what goes on to the simulator. */
  headers: Record<string, string>;
  body: unknown;
  base: 'main' | 'alt';
  /** State a violation keeps across calls of one target. */
  memory: Map<string, unknown>;
}
export interface ProxyAnswer {
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON answer; a hook edits it in place. */
  json: Record<string, unknown> & { data?: any; meta?: any; error?: any };
  /** Set to send this text instead of the JSON. */
  raw?: string;
}
export interface UnseenViolation {
  name: string;
  /** The interface's statement that is broken (section: words). */
  statement: string;
  /** The simulator's own answer is skipped when this returns one. */
  request?(call: ProxyCall): ProxyAnswer | undefined;
  answer?(call: ProxyCall, answer: ProxyAnswer): void;
  /** Whole lines of an event stream. */
  stream?(call: ProxyCall, lines: string): string;
  /** Signs deliveries instead of the simulator (same arguments as signWebhook). */
  sign?(body: string, secret: string, t: number): string;
  /** Edits an outgoing delivery (body text, headers); `resign` signs a body with the receiver's key (at `t`, default now). */
  deliver?(d: { body: string; headers: Record<string, string> }, resign: (body: string, t?: number) => string): void;
}

const skipHeaders = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection']);

/**
 * @example const target = await unseenTarget(UNSEEN[0]); await runConformance(target.full); await target.close();
 */
export async function unseenTarget(v?: UnseenViolation) {
  const secrets = new Map<string, string>();
  const deliveryFetch: typeof fetch = async (url, init) => {
    if (!v?.deliver || !init) return fetch(url, init);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const d = { body: String(init.body), headers };
    const secret = secrets.get(d.body) ?? '';
    v.deliver(d, (body, t = Math.floor(Date.now() / 1000)) => signWebhook(body, secret, t));
    return fetch(url, { ...init, headers: d.headers, body: d.body });
  };
  const sim = await serve({
    port: 0,
    altPort: 0,
    rateLimit: { limit: 5000, windowSeconds: 60 },
    webhooks: {
      fetch: deliveryFetch,
      sign: (body, secret, t) => {
        secrets.set(String(body), secret);
        return v?.sign ? v.sign(String(body), secret, t) : signWebhook(body, secret, t);
      },
    },
  });
  const memory = new Map<string, unknown>();
  const upstreams = { main: sim.baseUrl, alt: sim.altBaseUrl ?? sim.baseUrl };
  const origins = { main: '', alt: '' };
  const handler = (base: 'main' | 'alt') => async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://unseen');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let raw = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
    const headers: Record<string, string> = {};
    for (const [k, value] of Object.entries(req.headers))
      if (value !== undefined && k !== 'host' && k !== 'content-length') headers[k] = String(value);
    const call: ProxyCall = {
      method: req.method ?? 'GET',
      path: url.pathname,
      search: url.searchParams,
      headers,
      body: parse(raw),
      base,
      memory,
    };
    const api = url.pathname.startsWith(BASE_PATH);
    const received = call.body;
    const early = api ? v?.request?.(call) : undefined;
    if (early) return send(res, early);
    // A hook that replaced the body sends the new one on.
    if (call.body !== received) raw = JSON.stringify(call.body);
    const query = call.search.toString();
    const upstream = await fetch(`${upstreams[base]}${call.path}${query ? `?${query}` : ''}`, {
      method: call.method,
      headers: call.headers,
      ...(raw !== undefined ? { body: raw } : {}),
      redirect: 'manual',
    });
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, k) => {
      if (!skipHeaders.has(k)) out[k] = value;
    });
    const json = (upstream.headers.get('content-type') ?? '').includes('json');
    if (!json || !upstream.body) {
      res.writeHead(upstream.status, out);
      return pipeLines(
        upstream.body,
        res,
        (lines) => (api && v?.stream ? v.stream(call, lines) : lines),
        (rest) => rest,
      );
    }
    const text = (await upstream.text()).replaceAll(sim.baseUrl, origins.main).replaceAll(upstreams.alt, origins.alt);
    const answer: ProxyAnswer = { status: upstream.status, headers: out, json: parse(text) as ProxyAnswer['json'] };
    if (api && answer.json && typeof answer.json === 'object') v?.answer?.(call, answer);
    send(res, answer.json ? answer : { ...answer, raw: text });
  };
  const servers: Server[] = [createServer(handler('main')), createServer(handler('alt'))];
  for (const s of servers) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  [origins.main, origins.alt] = servers.map((s) => `http://127.0.0.1:${(s.address() as { port: number }).port}`) as [
    string,
    string,
  ];
  const sandbox = sim.sandbox;
  const { token, tenant } = sandbox.issueToken(TWO_TENANT_CLIENT);
  const otherTenant = sandbox.state.fixtures.clients
    .find((c) => c.id === TWO_TENANT_CLIENT)
    ?.tenants.find((t) => t !== tenant);
  /** Only what a first-time user passes. */
  const minimal: ConformanceOptions = { baseUrl: origins.main, token, tenant };
  /** Every option the kit has: both base URLs, two tenants, a foreign one, the admin token, the simulator's profile. */
  const full: ConformanceOptions = {
    ...minimal,
    altBaseUrl: origins.alt,
    ...(otherTenant ? { otherTenant } : {}),
    foreignTenant: 'lakeside-cafes',
    adminToken: sandbox.adminToken,
    deploymentProfile: { ...SIMULATOR_PROFILE, webhookReceiverUrl: 'loopback' },
  };
  return {
    minimal,
    full,
    async close() {
      for (const s of servers) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
      }
      await sim.close();
    },
  };
}

function send(res: ServerResponse, a: ProxyAnswer) {
  const body = a.raw ?? JSON.stringify(a.json);
  res.writeHead(a.status, a.headers).end(body);
}

function parse(text: string | undefined): unknown {
  try {
    return text === undefined || text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
