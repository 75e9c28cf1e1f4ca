import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { serve } from '../../simulator/app/serve.ts';
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { signWebhook } from '../../simulator/contract/webhook-signature.ts';

/**
 * A deployment that made other legal choices where the interface is silent, for the kit's self-test:
 * the simulator behind a loopback proxy that gives connections UUIDs and other state names, answers a
 * missing tenant header with 401, reshapes the audit log (other field names, no proof), signs
 * webhooks under another header name, names a delivery's id in another header and serves the delivery
 * log and redelivery at other paths (the simulator's answer 404). The kit must pass it with and without
 * a profile declaring them.
 */
export const ALT_CHOICES = {
  signatureHeader: 'X-Alt-Signature',
  deliveryIdHeader: 'X-Alt-Delivery-Id',
  deliveryLogPath: '/api/public/v1/webhooks/{webhookId}/attempts',
  redeliverPath: '/api/public/v1/webhooks/{webhookId}/attempts/{deliveryId}/retry',
  states: { pending: 'provisioning', active: 'live', paused: 'suspended', revoked: 'closed' } as Record<string, string>,
  /** This deployment's event names, and the simulator's they stand for. */
  events: { 'venue.link.created': 'connection.created', 'venue.link.changed': 'connection.state_changed' } as Record<
    string,
    string
  >,
};

/** The simulator's delivery-log paths, and this deployment's that stand for them. */
const SIM_DELIVERIES = ROUTE_BY_ID.get('listDeliveries')!.path;
const SIM_REDELIVER = ROUTE_BY_ID.get('redeliver')!.path;
const templateRegex = (template: string) =>
  new RegExp(`^${template.replace(/\{webhookId\}|\{deliveryId\}/g, '([^/]+)')}$`);
const ALT_PATHS: [alt: RegExp, sim: string][] = [
  [templateRegex(ALT_CHOICES.deliveryLogPath), SIM_DELIVERIES],
  [templateRegex(ALT_CHOICES.redeliverPath), SIM_REDELIVER],
];
const SIM_PATHS = [templateRegex(SIM_DELIVERIES), templateRegex(SIM_REDELIVER)];
/** Self-descriptions (discovery, OpenAPI) name this deployment's delivery-log paths (the longer one first). */
const publishPaths = (text: string) =>
  text.replaceAll(SIM_REDELIVER, ALT_CHOICES.redeliverPath).replaceAll(SIM_DELIVERIES, ALT_CHOICES.deliveryLogPath);
const SELF_DESCRIPTIONS = new Set(['/api/public/v1', '/api/public/v1/openapi.json', '/api/public/v1/openapi.yaml']);

/** A request path in the simulator's terms: this deployment's delivery-log paths mapped, the simulator's own hidden. */
function upstreamPath(path: string): string | undefined {
  for (const [alt, sim] of ALT_PATHS) {
    const m = alt.exec(path);
    if (m) return sim.replace('{webhookId}', m[1]!).replace('{deliveryId}', m[2] ?? '');
  }
  return SIM_PATHS.some((r) => r.test(path)) ? undefined : path;
}

const SIM_ID = /\bcon_[A-Za-z0-9_-]{16}\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
const PUBLIC = new Set([
  '/api/public/v1',
  '/api/public/v1/openapi.json',
  '/api/public/v1/openapi.yaml',
  '/api/public/v1/stream',
]);

export async function altChoicesTarget() {
  const sim = await serve({ port: 0, webhooks: { signatureHeader: ALT_CHOICES.signatureHeader } });
  const toUuid = new Map<string, string>();
  const toSim = new Map<string, string>();
  const renames = Object.entries(ALT_CHOICES.events);
  const outward = (text: string) =>
    renames
      .reduce(
        (t, [alt, sim]) => t.replaceAll(`"${sim}"`, `"${alt}"`).replaceAll(`event: ${sim}\n`, `event: ${alt}\n`),
        text,
      )
      .replace(SIM_ID, (id) => {
        let u = toUuid.get(id);
        if (!u) {
          u = randomUUID();
          toUuid.set(id, u);
          toSim.set(u, id);
        }
        return u;
      });
  const inward = (text: string) =>
    renames.reduce(
      (t, [alt, sim]) => t.replaceAll(`"${alt}"`, `"${sim}"`),
      text.replace(UUID, (u) => toSim.get(u) ?? u),
    );

  // Receivers registered through the proxy get their deliveries through its relay: bodies name the
  // proxy's ids and are signed again with the receiver's key, as the alternative deployment would.
  const receivers: { url: string; secret?: string }[] = [];
  const reshape = (path: string, body: { data?: Record<string, unknown> } & Record<string, unknown>) => {
    if (path.endsWith('/openapi.json')) {
      const audit = (body.paths as Record<string, { get?: { responses?: Record<string, unknown> } }>)?.[
        '/api/public/v1/audit-log'
      ];
      if (audit?.get?.responses)
        audit.get.responses['200'] = {
          description: "Audit log in this deployment's own format",
          content: { 'application/json': { schema: { type: 'object', required: ['ok', 'data', 'meta'] } } },
        };
      return JSON.stringify(body);
    }
    if (
      path.endsWith('/webhooks') &&
      typeof body.data?.id === 'string' &&
      typeof body.data.signingSecret === 'string'
    ) {
      const index = /\/relay\/(\d+)$/.exec(String(body.data.url))?.[1];
      const r = index === undefined ? undefined : receivers[Number(index)];
      if (r) {
        r.secret = body.data.signingSecret;
        body.data.url = r.url;
      }
    }
    if (path.endsWith('/audit-log') && body.data) {
      const entries = (body.data.entries as Record<string, unknown>[] | undefined) ?? [];
      body.data = { items: entries.map((e) => ({ sequence: e.seq, what: e.action, object: e.target, when: e.at })) };
    }
    return JSON.stringify(body, (key, value) =>
      key === 'state' && typeof value === 'string' ? (ALT_CHOICES.states[value] ?? value) : value,
    );
  };

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://alt');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = forwardable(req.headers);
    if (
      headers.authorization &&
      !headers['x-service-tenant'] &&
      url.pathname.startsWith('/api/public/v1') &&
      !PUBLIC.has(url.pathname)
    ) {
      const requestId = `alt_${randomUUID()}`;
      res.writeHead(401, { 'content-type': 'application/json', 'x-request-id': requestId });
      res.end(
        JSON.stringify({
          ok: false,
          error: {
            code: 'unauthorized',
            message: 'No tenant named: this access is signed in for none.',
            hint: 'Send x-service-tenant.',
          },
          meta: { requestId, version: '2026-07-01', at: new Date().toISOString() },
        }),
      );
      return;
    }
    if (url.pathname.startsWith('/relay/'))
      return relay(Number(url.pathname.split('/')[2]), Buffer.concat(chunks), req.headers['ncs-delivery'], res);
    const path = upstreamPath(url.pathname);
    if (path === undefined) {
      const requestId = `alt_${randomUUID()}`;
      res.writeHead(404, { 'content-type': 'application/json', 'x-request-id': requestId });
      res.end(
        JSON.stringify({
          ok: false,
          error: { code: 'not_found', message: 'No such path in this deployment.' },
          meta: { requestId, version: '2026-07-01', at: new Date().toISOString() },
        }),
      );
      return;
    }
    let raw = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
    if (raw && req.method === 'POST' && url.pathname === '/api/public/v1/webhooks') {
      // Only this deployment's names are known; any other (the simulator's too) is made one the
      // simulator refuses, so auth, idempotency and validation answer in their usual order.
      const json = JSON.parse(raw) as { events?: unknown[] };
      if (Array.isArray(json.events))
        json.events = json.events.map((e) =>
          typeof e === 'string' && e in ALT_CHOICES.events ? e : `unknown:${String(e)}`,
        );
      raw = JSON.stringify(json);
    }
    let sent = raw === undefined ? undefined : inward(raw);
    if (sent && req.method === 'POST' && url.pathname === '/api/public/v1/webhooks') {
      const json = JSON.parse(sent) as { url?: string };
      if (typeof json.url === 'string') {
        // One relay address per receiver address, so a repeated registration is the same request.
        let index = receivers.findIndex((r) => r.url === json.url);
        if (index < 0) index = receivers.push({ url: json.url }) - 1;
        json.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/relay/${index}`;
        sent = JSON.stringify(json);
      }
    }
    const upstream = await fetch(`${sim.baseUrl}${inward(path)}${url.search}`, {
      method: req.method ?? 'GET',
      headers,
      ...(sent !== undefined ? { body: sent } : {}),
    });
    const out: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (k !== 'content-length' && k !== 'content-encoding' && k !== 'transfer-encoding' && k !== 'connection')
        out[k] = v;
    });
    if (!upstream.body || !(upstream.headers.get('content-type') ?? '').includes('json')) {
      res.writeHead(upstream.status, out);
      // Event streams name connections too: whole lines rewritten, a partial one kept for the next chunk.
      let rest = '';
      const decoder = new TextDecoder();
      const publish = SELF_DESCRIPTIONS.has(url.pathname) ? publishPaths : (t: string) => t;
      if (upstream.body)
        for await (const c of upstream.body) {
          rest += decoder.decode(c as Uint8Array, { stream: true });
          const cut = rest.lastIndexOf('\n') + 1;
          if (cut > 0) res.write(publish(outward(rest.slice(0, cut))));
          rest = rest.slice(cut);
        }
      res.end(publish(outward(rest)));
      return;
    }
    const fetched = outward(await upstream.text());
    const text = SELF_DESCRIPTIONS.has(url.pathname) ? publishPaths(fetched) : fetched;
    let body = text;
    try {
      body = reshape(url.pathname, JSON.parse(text));
    } catch {
      // Not JSON after all: passed on as it came.
    }
    res.writeHead(upstream.status, out).end(body);
  });
  async function relay(
    index: number,
    raw: Buffer,
    deliveryId: string | string[] | undefined,
    res: import('node:http').ServerResponse,
  ) {
    const r = receivers[index];
    if (!r?.secret) return void res.writeHead(404).end();
    const body = outward(raw.toString('utf8'));
    const t = Math.floor(Date.now() / 1000);
    const answer = await fetch(r.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [ALT_CHOICES.signatureHeader]: signWebhook(body, r.secret, t),
        ...(typeof deliveryId === 'string' ? { [ALT_CHOICES.deliveryIdHeader]: deliveryId } : {}),
      },
      body,
    }).catch(() => undefined);
    res.writeHead(answer?.status ?? 502).end();
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    sandbox: sim.sandbox,
    token: sim.token,
    tenant: sim.tenant,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await sim.close();
    },
  };
}

function forwardable(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined && k !== 'host' && k !== 'content-length') out[k] = String(v);
  return out;
}
