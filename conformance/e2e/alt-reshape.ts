import type { RouteDef } from '../../simulator/contract/route-def.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { AltChoices } from './alt-choices.ts';
import { signedEpochAudit } from './alt-further.ts';
import { composedOpenApi } from './alt-openapi-composed.ts';

/** The audit log in the alternative's own format, so the kit must not read the simulator's. */
const AUDIT_200 = {
  description: "Audit log in this deployment's own format",
  content: { 'application/json': { schema: { type: 'object', required: ['ok', 'data', 'meta'] } } },
};

/** openapi.json as the alternative publishes it: its own audit schema; servers at the base path with relative paths, if so chosen. */
export function reshapeOpenApi(
  doc: Record<string, unknown>,
  c: AltChoices,
  origins: readonly string[] = [],
): Record<string, unknown> {
  const paths = doc.paths as Record<string, { get?: { responses?: Record<string, unknown> } }>;
  const audit = paths?.[`${BASE_PATH}/audit-log`];
  if (audit?.get?.responses) audit.get.responses['200'] = AUDIT_200;
  if (c.infoRoute === false && paths) delete paths[`${BASE_PATH}/info`];
  if (c.further?.openApiComposed) return composedOpenApi(doc);
  if (c.openApiServers === 'origin') return doc;
  const relative: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(paths ?? {}))
    relative[path === BASE_PATH ? '/' : path.startsWith(`${BASE_PATH}/`) ? path.slice(BASE_PATH.length) : path] = item;
  const servers =
    c.openApiServers === 'absolute-both'
      ? origins.map((o, i) => ({ url: `${o}${c.basePrefix ?? ''}${BASE_PATH}`, description: i ? 'alternate' : 'main' }))
      : [{ url: BASE_PATH }];
  return { ...doc, servers, paths: relative };
}

/** The self-description as the alternative gives it: only the interface's routes, no token endpoint, if so chosen. */
export function reshapeSelfDescription(
  body: Record<string, unknown>,
  c: AltChoices,
  simRoutes: readonly RouteDef[],
): Record<string, unknown> {
  const data = body.data as { authentication?: Record<string, unknown>; routes?: { method: string; path: string }[] };
  if (!data) return body;
  if (data.authentication) {
    const auth = data.authentication;
    if (!c.tokenInSelfDescription) {
      delete auth.tokenEndpoint;
      delete auth.metadata;
    } else if (c.tokenPath) auth.tokenEndpoint = c.tokenPath;
    // Behind a gateway path every relative address of the description carries it.
    if (c.basePrefix)
      for (const [k, v] of Object.entries(auth))
        if (typeof v === 'string' && v.startsWith('/')) auth[k] = `${c.basePrefix}${v}`;
  }
  if (c.infoRoute === false && Array.isArray(data.routes))
    data.routes = data.routes.filter((r) => r.path !== `${BASE_PATH}/info`);
  if (c.selfDescribes === 'interface-routes' && Array.isArray(data.routes)) {
    const interfaceKeys = new Set(simRoutes.filter((r) => !r.addition).map((r) => `${r.method} ${r.path}`));
    data.routes = data.routes.filter((r) => interfaceKeys.has(`${r.method} ${r.path}`));
  }
  return body;
}

/**
 * The audit log in the alternative's fields and order; paged oldest first by `?after=<seq>` with a
 * `next` path when more entries follow (the proxy asked the simulator for its newest 500).
 */
export function reshapeAudit(data: Record<string, unknown>, c: AltChoices, query: URLSearchParams) {
  if (c.further?.auditSignedEpoch) return signedEpochAudit(data);
  const f = c.audit.fields;
  const entries = ((data.entries as Record<string, unknown>[] | undefined) ?? []).map((e) => ({
    [f.seq]: e.seq,
    [f.action]: e.action,
    [f.target]: e.target,
    [f.at]: e.at,
    // Its proof of integrity in its own shape: a digest chain under other names, no declared format.
    digest: e.hash,
    previousDigest: e.prevHash,
  }));
  const ordered = c.audit.order === 'oldest-first' ? entries.reverse() : entries;
  if (!c.audit.paged) return { [c.audit.list]: ordered };
  const limit = Math.min(Number(query.get('limit') ?? 50), c.audit.maxLimit ?? Number.POSITIVE_INFINITY);
  const cursor = query.get('cursor');
  const after = Number(
    cursor !== null && c.audit.next === 'cursor'
      ? Buffer.from(cursor, 'base64url')
          .toString('utf8')
          .replace(/^after:/, '')
      : (query.get('after') ?? Number.NEGATIVE_INFINITY),
  );
  const rest = ordered.filter((e) =>
    c.audit.order === 'oldest-first' ? (e[f.seq] as number) > after : (e[f.seq] as number) < -after,
  );
  const page = rest.slice(0, limit);
  const last = page.at(-1)?.[f.seq];
  const afterLast = c.audit.order === 'oldest-first' ? last : -Number(last);
  if (!(rest.length > limit && typeof last === 'number')) return { [c.audit.list]: page };
  return c.audit.next === 'cursor'
    ? { [c.audit.list]: page, nextCursor: Buffer.from(`after:${afterLast}`).toString('base64url') }
    : { [c.audit.list]: page, next: `${BASE_PATH}/audit-log?limit=${limit}&after=${afterLast}` };
}

/** An issued key's expiresAt as this deployment sets it: meta.at plus its validity (if it chose one). */
export function reshapeKeyResult(body: Record<string, unknown>, c: AltChoices): void {
  if (!c.keyValiditySeconds || body.ok !== true) return;
  const d = body.data as { expiresAt?: unknown } | undefined;
  const at = Date.parse(String((body.meta as { at?: unknown } | undefined)?.at));
  if (d && !Number.isNaN(at)) d.expiresAt = new Date(at + c.keyValiditySeconds * 1000).toISOString();
}

/** A stream request without a resume point, made to start at the oldest retained message. */
export function fromStart(search: URLSearchParams, headers: Record<string, string | undefined>): void {
  if (!search.has('cursor') && !headers['last-event-id']) search.set('cursor', '0');
}

/** An unknown connector's 404 on POST /capabilities as this deployment answers it: a decision "not allowed". */
export function notAllowed(
  body: Record<string, unknown>,
  answer: { status: number; requestBody: unknown },
): Record<string, unknown> {
  const e = body.error as { code?: string } | undefined;
  const sent = (answer.requestBody ?? {}) as { connectorId?: unknown; capability?: unknown; environment?: unknown };
  if (body.ok !== false || e?.code !== 'not_found' || typeof sent.connectorId !== 'string') return body;
  if (typeof sent.capability !== 'string') return body;
  answer.status = 200;
  const decision = { connectorId: sent.connectorId, capability: sent.capability, allowed: false };
  return {
    ok: true,
    data: {
      decision: { ...decision, critical: false, idempotencyRequired: false, reason: 'unknown_connector' },
      environment: sent.environment ?? 'sandbox',
    },
    meta: body.meta,
  };
}
