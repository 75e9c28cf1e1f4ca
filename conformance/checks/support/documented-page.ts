import { deref, type OpenApiLike, operationLocation, operationsOf } from './openapi.ts';

// A list's page size is the deployment's ("further parameters: not shown" for the audit log; the delivery log's
// paths and payloads are not shown at all): what its own document gives is what the kit may ask for.

/** Names a page size goes by: limit, OData's $top, AIP-158's page_size, Rails' per_page, … */
const PAGE_SIZE = /^(?:limit|\$?top|page[-_]?size|per[-_]?page|size|max[-_]?results|count|first)$/i;

/**
 * The `maximum` a document gives a query parameter of a GET operation, if it gives one.
 * @example documentedMaximum(doc, '/api/public/v1/audit-log', 'limit') // 500
 */
export function documentedMaximum(doc: unknown, path: string, name: string): number | undefined {
  return documentedSizes(doc, path).find((p) => p.name === name)?.maximum;
}

/**
 * The `minimum` a document gives a query parameter of a GET operation, if it gives one.
 * @example documentedMinimum(doc, '/api/public/v1/audit-log', 'limit') // 1
 */
export function documentedMinimum(doc: unknown, path: string, name: string): number | undefined {
  return documentedSizes(doc, path).find((p) => p.name === name)?.minimum;
}

/** The document's path (a template, `{id}`) that a concrete path fills, or the path itself. */
function templateOf(doc: OpenApiLike, path: string): string {
  const paths = operationsOf(doc)
    .filter((o) => o.method === 'GET')
    .map((o) => o.path);
  const fills = (template: string) =>
    new RegExp(
      `^${template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+')}$`,
    ).test(path);
  return paths.find((t) => t === path) ?? paths.find((t) => t.includes('{') && fills(t)) ?? path;
}

function documentedSizes(doc: unknown, path: string): { name: string; maximum?: number; minimum?: number }[] {
  if (!doc || typeof doc !== 'object') return [];
  const loc = operationLocation(doc as OpenApiLike, 'GET', templateOf(doc as OpenApiLike, path));
  if (!loc) return [];
  return ([loc.op, loc.item] as { parameters?: unknown }[]).flatMap((owner) =>
    (Array.isArray(owner.parameters) ? owner.parameters : []).flatMap((raw) => {
      const p = deref(doc, raw, []).value as { name?: unknown; in?: unknown; schema?: unknown } | undefined;
      if (typeof p?.name !== 'string' || p.in !== 'query') return [];
      const schema = deref(doc, p.schema, []).value as { maximum?: unknown; minimum?: unknown } | undefined;
      return [
        {
          name: p.name,
          ...(typeof schema?.maximum === 'number' ? { maximum: schema.maximum } : {}),
          ...(typeof schema?.minimum === 'number' ? { minimum: schema.minimum } : {}),
        },
      ];
    }),
  );
}

/**
 * The largest page a GET's document allows by a page-size parameter with a stated maximum (at most `cap`),
 * as a query to send; undefined when the document states none.
 * @example largestDocumentedPage(doc, '/api/public/v1/webhooks/w1/deliveries', 200) // { limit: '100' }
 */
export function largestDocumentedPage(doc: unknown, path: string, cap: number): Record<string, string> | undefined {
  const size = documentedSizes(doc, path).find((p) => PAGE_SIZE.test(p.name) && p.maximum !== undefined);
  if (!size?.maximum || size.maximum < 1) return undefined;
  return { [size.name]: String(Math.min(cap, Math.floor(size.maximum))) };
}
