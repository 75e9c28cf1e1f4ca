import type { IncomingMessage, ServerResponse } from 'node:http';
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';

/**
 * Further legal choices of an alternative target (alt-choices.ts, `further`; ALT_G), none of which the
 * simulator or ALT_A..ALT_F makes: an authorization server taking client_secret_post only, a webhook
 * registration answer nesting the receiver, deliveries sent as text/plain, rate limits weighted and counted
 * per base URL, a replay repeating the original meta.at, audit entries with nested actor and target, epoch
 * times and a signature as proof, lists sorted by name. The stream's and the OpenAPI document's choices are
 * in alt-stream-text.ts and alt-openapi-composed.ts. Absent: the simulator's choice.
 */
export interface FurtherChoices {
  /** The token endpoint refuses client_secret_basic, and its RFC 8414 metadata lists client_secret_post only. */
  tokenAuthPostOnly?: boolean;
  /** Stream messages' data as one line of plain text naming the connection ("the payload of a message: not shown"). */
  streamTextData?: boolean;
  /** Stream bytes cut inside a multi-byte character and between CR and LF, several events a chunk, `id:` after `data:`. */
  streamAwkwardChunks?: boolean;
  /** The webhook registration answer as `data.webhook` (id, events, secret) and `data.receiver` (url): "Response fields: not shown". */
  nestedRegistration?: boolean;
  /** Deliveries sent as text/plain with a User-Agent of the deployment (the raw body is what is signed). */
  plainTextDeliveries?: boolean;
  /** X-RateLimit-* counted per base URL, per access and tenant, a write weighing several calls (values not shown). */
  weightedRateLimit?: boolean;
  /** A replay repeats the original's meta.at (a new requestId); a conflict's detail names the stored request. */
  replayOriginalAt?: boolean;
  /** Audit entries under `data.page.entries` with `actor` and `target` objects, epoch seconds, a signature as proof. */
  auditSignedEpoch?: boolean;
  /** The delivery log nesting its list: `data.receiver` and `data.page.items` (its payload is not shown). */
  nestedDeliveryLog?: boolean;
  /** Lists sorted: providers and connectors by name, capabilities by label, connections newest first (order not shown). */
  listsSorted?: boolean;
  /** OpenAPI with $ref to components.responses, allOf envelopes, type [..., "null"], servers with a variable. */
  openApiComposed?: boolean;
}

type Json = Record<string, unknown>;

/** The token path's request as this authorization server takes it: client_secret_basic refused. */
export function refusesBasic(f: FurtherChoices | undefined, req: IncomingMessage, res: ServerResponse): boolean {
  if (!f?.tokenAuthPostOnly || !/^basic /i.test(String(req.headers.authorization ?? ''))) return false;
  res
    .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="ncs"' })
    .end(
      '{"error":"invalid_client","error_description":"client authentication method not allowed for this client: use client_secret_post"}',
    );
  return true;
}

/** The RFC 8414 metadata as this authorization server publishes it. */
export function metadataText(f: FurtherChoices | undefined, text: string): string {
  if (!f?.tokenAuthPostOnly) return text;
  try {
    const json = JSON.parse(text) as Json;
    json.token_endpoint_auth_methods_supported = ['client_secret_post'];
    return JSON.stringify(json);
  } catch {
    return text;
  }
}

/** The registration answer with the receiver nested: `data.webhook` and `data.receiver`. */
export function nestRegistration(body: Json, f: FurtherChoices): void {
  const data = body.data as Json | undefined;
  if (!f.nestedRegistration || !data || typeof data.id !== 'string') return;
  const { url, signingSecret, ...rest } = data;
  body.data = {
    webhook: { ...rest, ...(typeof signingSecret === 'string' ? { secret: signingSecret } : {}) },
    receiver: { url, verified: false },
  };
}

/** A delivery's content type and headers as this deployment sends it. */
export function deliveryHeaders(f: FurtherChoices | undefined, contentType: string): Record<string, string> {
  if (!f?.plainTextDeliveries) return { 'content-type': contentType };
  return { 'content-type': 'text/plain; charset=utf-8', 'user-agent': 'NCS-Hookshot/2.4 (+https://ncs.example/hooks)' };
}

/** One base URL's rate-limit counter: per access and tenant, a window of a minute, writes weighing 4. */
export function weightedCounter(limit = 20_000) {
  const used = new Map<string, { start: number; n: number }>();
  return (out: Record<string, string>, headers: Record<string, string>, method: string, status: number) => {
    if (out['x-ratelimit-limit'] === undefined) return;
    const who = `${headers.authorization ?? ''} ${headers['x-service-tenant'] ?? ''}`;
    const earlier = used.get(who);
    const w = earlier && Date.now() - earlier.start <= 60_000 ? earlier : { start: Date.now(), n: 0 };
    used.set(who, w);
    w.n = Math.min(limit, w.n + (method === 'GET' ? 1 : 4));
    out['x-ratelimit-limit'] = String(limit);
    out['x-ratelimit-remaining'] = String(status === 429 ? 0 : limit - w.n);
  };
}

/** A weighted counter per base URL (the listener's upstream origin names it). */
export function perBaseUrl() {
  const counters = new Map<string, ReturnType<typeof weightedCounter>>();
  return (base: string) => {
    const found = counters.get(base) ?? weightedCounter();
    counters.set(base, found);
    return found;
  };
}

/**
 * A JSON answer as this deployment writes it: lists sorted; meta.at of a replay as the original's; a
 * conflict naming the stored request in its detail.
 */
export function replayState() {
  const first = new Map<string, { requestId: unknown; at: unknown; path: string }>();
  return (
    f: FurtherChoices,
    method: string,
    headers: Record<string, string>,
    path: string,
    status: number,
    body: Json,
  ) => {
    sortList(f, method, path, body);
    const key = headers['idempotency-key'];
    if (!f.replayOriginalAt || !key) return;
    const id = `${headers['x-service-tenant'] ?? ''} ${path} ${key}`;
    const meta = body.meta as Json | undefined;
    const stored = first.get(id);
    if (status === 200 && meta && meta.replayed !== true && !stored)
      first.set(id, { requestId: meta.requestId, at: meta.at, path });
    if (status === 200 && meta?.replayed === true && stored) meta.at = stored.at;
    const error = body.error as Json | undefined;
    if (error?.code === 'idempotency_conflict' && stored)
      error.detail = `this key was stored with request ${String(stored.requestId)} (POST ${stored.path}) at ${String(stored.at)}`;
  };
}

/** The audit log as this deployment writes it: nested actor and target, epoch seconds, a signature as proof. */
export function signedEpochAudit(data: Json): Json {
  const entries = ((data.entries as Json[] | undefined) ?? []).map((e) => ({
    sequence: e.seq,
    action: e.action,
    actor: { type: 'client', id: e.actor },
    target: { type: String(e.target).split(':')[0], id: String(e.target).split(':').slice(1).join(':') },
    at: Math.floor(Date.parse(String(e.at)) / 1000),
    request: e.requestId,
  }));
  return {
    page: { size: entries.length, entries },
    proof: {
      type: 'Ed25519Signature2020',
      keyId: 'ncs-audit-2026',
      signature: 'z3FXQjecWufY46yg5abdVZsXqLhxhueuSoZgNSARiKBk',
    },
  };
}

/** The delivery log as this deployment writes it: its list nested in a page. */
export function nestDeliveryLog(body: Json, f: FurtherChoices | undefined): void {
  const data = body.data as Json | undefined;
  if (!f?.nestedDeliveryLog || !data || !Array.isArray(data.deliveries)) return;
  const { deliveries, webhookId, ...rest } = data;
  body.data = { receiver: { id: webhookId }, page: { items: deliveries, total: deliveries.length }, ...rest };
}

const LISTS: Record<string, [string, string, 'asc' | 'desc']> = {
  [ROUTE_BY_ID.get('listProviders')?.path ?? `${BASE_PATH}/providers`]: ['providers', 'name', 'asc'],
  [ROUTE_BY_ID.get('listConnectors')?.path ?? `${BASE_PATH}/connectors`]: ['connectors', 'name', 'asc'],
  [ROUTE_BY_ID.get('listCapabilities')?.path ?? `${BASE_PATH}/capabilities`]: ['capabilities', 'label', 'asc'],
  [ROUTE_BY_ID.get('listConnections')?.path ?? `${BASE_PATH}/connections`]: ['connections', 'createdAt', 'desc'],
};

/** A list answer sorted this deployment's way. */
export function sortList(f: FurtherChoices, method: string, path: string, body: Json): void {
  const how = f.listsSorted && method === 'GET' ? LISTS[path] : undefined;
  const data = body.data as Json | undefined;
  if (!how || !data || !Array.isArray(data[how[0]])) return;
  const [list, field, order] = how;
  const text = (v: unknown) => String((v as Json)[field] ?? '');
  data[list] = [...(data[list] as unknown[])].sort(
    (a, b) => (order === 'asc' ? 1 : -1) * text(a).localeCompare(text(b), 'en'),
  );
}
