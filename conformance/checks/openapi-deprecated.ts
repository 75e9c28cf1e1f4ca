// openapi.json must not announce the end of what the current version requires. "No change that requires
// adaptation of clients exists in the current version": an interface operation, a header or query parameter the
// interface gives it (x-service-tenant, Idempotency-Key, the filters, the cursor) or a body field its tables list,
// marked `deprecated: true`, tells a generated client to stop using it (code generators warn, some drop it),
// though the interface requires it. Additions of the deployment's own may be deprecated freely.
import { interfaceQuery, interfaceRoutes } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { listed } from './support/listed.ts';
import { deref, type OpenApiLike, operationLocation, requireOpenApi } from './support/openapi.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const shapeOf = (s: unknown) => (s as { def?: { shape?: Record<string, unknown> } } | undefined)?.def?.shape ?? {};

/** The properties a schema names (its references and compositions followed), with their schemas. */
function propertiesOf(doc: OpenApiLike, schema: unknown, depth = 0): [string, unknown][] {
  const s = deref(doc, schema, []).value;
  if (!isObject(s) || depth > 16) return [];
  const own = isObject(s.properties) ? Object.entries(s.properties) : [];
  const composed = ['allOf', 'anyOf', 'oneOf'].flatMap((k) =>
    Array.isArray(s[k]) ? (s[k] as unknown[]).flatMap((b) => propertiesOf(doc, b, depth + 1)) : [],
  );
  return [...own, ...composed];
}

const deprecated = (doc: OpenApiLike, node: unknown) => {
  const v = deref(doc, node, []).value;
  return isObject(v) && v.deprecated === true;
};

/**
 * What the interface requires or offers that the document marks deprecated, one line each.
 * @example contractDeprecated(doc) // ['GET /api/public/v1/connections: header x-service-tenant']
 */
export function contractDeprecated(doc: OpenApiLike): string[] {
  const out: string[] = [];
  for (const route of interfaceRoutes().filter((r) => (r.kind ?? 'json') !== 'document')) {
    const loc = operationLocation(doc, route.method, route.path);
    if (!loc) continue;
    const label = `${route.method} ${route.path}`;
    if ((loc.op as Json).deprecated === true) out.push(`${label} (the operation)`);
    const wanted = [
      ...interfaceQuery(route).map((name) => ({ in: 'query', name })),
      ...(route.idempotent ? [{ in: 'header', name: 'Idempotency-Key' }] : []),
      ...(route.auth ? [{ in: 'header', name: 'x-service-tenant' }] : []),
    ];
    const params = [loc.op, loc.item].flatMap((owner) =>
      (Array.isArray((owner as { parameters?: unknown }).parameters)
        ? (owner as { parameters: unknown[] }).parameters
        : []
      )
        .map((p) => deref(doc, p, []).value)
        .filter((p): p is Json => isObject(p) && typeof p.name === 'string'),
    );
    for (const w of wanted) {
      const same = (p: Json) =>
        p.in === w.in &&
        (w.in === 'header' ? String(p.name).toLowerCase() === w.name.toLowerCase() : p.name === w.name);
      // The operation's own parameter overrides its path item's (OpenAPI 3.1 §4.8.10): the first found speaks.
      const p = params.find(same);
      if (p && (p.deprecated === true || deprecated(doc, p.schema))) out.push(`${label}: ${w.in} ${w.name}`);
    }
    // Body fields only where the interface states the request (a sample-call-only body is the deployment's).
    if (route.fieldsNotShown) continue;
    const body = deref(doc, loc.op.requestBody, []).value;
    const content = isObject(body) && isObject(body.content) ? body.content : {};
    const json = Object.entries(content).find(([t]) => /^application\/(?:[\w.+-]+\+)?json/.test(t))?.[1];
    const props = isObject(json) ? propertiesOf(doc, json.schema) : [];
    for (const name of Object.keys(shapeOf(route.body)))
      if (props.some(([n, s]) => n === name && deprecated(doc, s))) out.push(`${label}: body field ${name}`);
  }
  return [...new Set(out)];
}

export const contractNotDeprecated = defineCheck({
  name: 'openapi.contract-not-deprecated',
  title:
    "openapi.json marks none of the interface's operations, the parameters and headers the interface gives them, or the body fields its tables list as deprecated (the current version requires no adaptation of clients)",
  severity: 'SHOULD',
  section: 'Versioning',
  tags: ['openapi', 'versions'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const found = contractDeprecated(doc);
    ctx.expect.that(found.length === 0, {
      expected:
        'what the interface requires is not announced as going away ("No change that requires adaptation of clients exists in the current version")',
      observed: `marked deprecated: ${listed(found)}`,
      exchange: ex,
    });
  },
});
