import type { CheckContext } from '../../runner/check.ts';
import type { DeploymentProfile } from '../../runner/deployment-profile.ts';
import { type OpenApiLike, openApiExchange, operationsOf } from './openapi.ts';
import { parseRoutes, selfDescriptionExchange } from './self-description.ts';

// Where the delivery log and its re-trigger are (the interface: "the paths and payloads are not shown").
// The deployment profile's declaration comes first; without one, the routes the deployment publishes
// itself (its OpenAPI document, else its self-description) are read before the simulator's paths are
// assumed: a deployment documenting `POST /webhooks/{id}/deliveries/{deliveryId}:redeliver` is judged
// there, not skipped at a path it never offered.

type RouteField = 'webhookDeliveryLogPath' | 'webhookRedeliverPath';

/** A route template and where the kit took it from. */
export interface WebhookRoute {
  template: string | null;
  /** declared: the profile; published: the deployment's own document; assumed: the simulator's default. */
  source: 'declared' | 'published' | 'assumed';
}

const PARAM = /\{[^{}/]+\}/g;
const HAS_PARAM = /\{[^{}/]+\}/;
/**
 * A segment naming deliveries (deliveries, delivery-log, delivery-attempts, webhook-deliveries, attempts, ...)
 * or the transactional outbox they leave through (tamarack: `/webhooks/{id}/outbox`, `…/outbox/{id}/requeue`).
 */
const DELIVERY_SEGMENT = /deliver|attempt|outbox/i;
/** Under a receiver, its messages are its deliveries (Svix: `/webhooks/{id}/messages`, `…/messages/{id}/resend`). */
const RECEIVER_PATH = /webhook|receiver|endpoint|subscription/i;
const MESSAGES = /\/messages?(?=\/|$)/i;
/** A path ending in a verb that triggers a delivery again, after its id (`…/{id}/retry`, `…/{id}:redeliver`). */
const RETRIGGER = /\}[/:](?:re-?deliver|resend|retry|replay|requeue|re-?trigger)$/i;

/** Where the segment naming deliveries starts in `path`, or -1. */
function deliverySegmentAt(path: string): number {
  const named = path.search(DELIVERY_SEGMENT);
  if (named >= 0) return named;
  const messages = path.search(MESSAGES);
  return messages >= 0 && RECEIVER_PATH.test(path.slice(0, messages)) ? messages : -1;
}

interface RouteLike {
  method: string;
  path: string;
  /** Query parameters the operation declares (OpenAPI only). */
  query?: string[];
  /** What the route says it is for: its summary and description, or the self-description's purpose. */
  text?: string;
}

/** A route's own words naming the delivery log (Cloud Tasks' `…/tasks` described as "delivery log of a receiver"). */
const SAYS_DELIVERY_LOG =
  /deliver(?:y|ies)[ -]?(?:log|history|attempts)|(?:log|list|history) of (?:the |its |a )?(?:webhook )?deliveries/i;

/**
 * A delivery log among published routes: a GET whose last segment names deliveries and whose one path
 * parameter (before it) is the receiver, or a GET without path parameters taking the receiver as a query
 * parameter (`/webhook-deliveries?webhookId=`). Only an unambiguous single match counts.
 * @example deliveryLogAmong([{ method: 'GET', path: '/v1/webhooks/{id}/deliveries' }]) // '/v1/webhooks/{webhookId}/deliveries'
 */
export function deliveryLogAmong(routes: readonly RouteLike[]): string | undefined {
  const found = new Set<string>();
  for (const r of routes) {
    if (r.method.toUpperCase() !== 'GET') continue;
    const cut = r.path.lastIndexOf('/');
    const named = deliverySegmentAt(r.path) >= cut;
    // Or a route under a receiver whose own words call it the delivery log, whatever its last segment.
    const said = SAYS_DELIVERY_LOG.test(r.text ?? '') && RECEIVER_PATH.test(r.path.slice(0, cut));
    if (HAS_PARAM.test(r.path.slice(cut)) || (!named && !said)) continue;
    const params = r.path.match(PARAM) ?? [];
    if (params.length === 1) found.add(r.path.replace(PARAM, '{webhookId}'));
    else if (params.length === 0) {
      const q = r.query?.find((name) => /webhook|receiver|subscription/i.test(name));
      if (q) found.add(`${r.path}?${encodeURIComponent(q)}={webhookId}`);
    }
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/**
 * A re-trigger among published routes: a POST whose path names deliveries and ends in a path parameter
 * after that segment (the delivery), with at most one parameter before it (the receiver), whatever verb
 * follows (`/redeliver`, `/retry`, `:redeliver`); or a POST under a receiver whose two parameters are the
 * receiver and the delivery, ending in such a verb. Only an unambiguous single match counts.
 * @example redeliverAmong([{ method: 'POST', path: '/v1/webhook-deliveries/{id}/retry' }]) // '/v1/webhook-deliveries/{deliveryId}/retry'
 */
export function redeliverAmong(routes: readonly RouteLike[]): string | undefined {
  const found = new Set<string>();
  for (const r of routes) {
    if (r.method.toUpperCase() !== 'POST') continue;
    const params = [...r.path.matchAll(PARAM)];
    const lastParam = params.at(-1);
    // Or a re-trigger verb after the delivery under a receiver, whatever the delivery is called (Hookdeck:
    // `/webhooks/{id}/events/{eventId}/retry`).
    const verbAt = params.length === 2 && RETRIGGER.test(r.path) ? (params[0]?.index ?? -1) : -1;
    const receiver = verbAt >= 0 && RECEIVER_PATH.test(r.path.slice(0, verbAt)) ? verbAt : -1;
    // The verb itself is no segment naming deliveries (kauri: `/webhooks/{id}/exchanges/{exchangeId}/redeliver`).
    const named = deliverySegmentAt(r.path.replace(RETRIGGER, '}'));
    const at = named >= 0 ? named : receiver;
    if (at < 0 || !lastParam || lastParam.index < at || params.length > 2) continue;
    let n = 0;
    const names = params.length === 2 ? ['{webhookId}', '{deliveryId}'] : ['{deliveryId}'];
    found.add(r.path.replace(PARAM, () => names[n++] ?? '{deliveryId}'));
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/** The routes the deployment publishes: its OpenAPI document's operations, else its self-description's routes. */
async function publishedRoutes(ctx: CheckContext): Promise<RouteLike[]> {
  const doc = await openApiExchange(ctx);
  if (doc.status === 200 && doc.json && typeof doc.json === 'object' && !Array.isArray(doc.json)) {
    const ops = operationsOf(doc.json as OpenApiLike).map(({ method, path, op }) => ({
      method,
      path,
      query: (Array.isArray(op.parameters) ? op.parameters : [])
        .filter((p) => p?.in === 'query' && typeof p.name === 'string')
        .map((p) => p.name as string),
      text: [(op as { summary?: unknown }).summary, (op as { description?: unknown }).description]
        .filter((t) => typeof t === 'string')
        .join(' '),
    }));
    if (ops.length > 0) return ops;
  }
  const self = await selfDescriptionExchange(ctx);
  const raw = (self.json as { data?: { routes?: unknown } } | undefined)?.data?.routes;
  return self.status === 200 ? parseRoutes(raw).routes.map((r) => ({ ...r, text: r.purpose })) : [];
}

const FINDERS: Record<RouteField, (routes: readonly RouteLike[]) => string | undefined> = {
  webhookDeliveryLogPath: deliveryLogAmong,
  webhookRedeliverPath: redeliverAmong,
};

/**
 * The template of a webhook route for this run: declared, published by the deployment, or the simulator's.
 * @example (await webhookRoute(ctx, 'webhookRedeliverPath')).template // '/api/public/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver'
 */
export function webhookRoute(ctx: CheckContext, field: RouteField): Promise<WebhookRoute> {
  const profiled = ctx.deployment[field] as DeploymentProfile[RouteField];
  if (ctx.declared(field)) return Promise.resolve({ template: profiled, source: 'declared' });
  return ctx.shared(`webhook-route ${field}`, async () => {
    const published = FINDERS[field](await publishedRoutes(ctx));
    if (published && published !== profiled) {
      ctx.note(`${field}: ${published}, as the deployment publishes it (not declared in the deployment profile)`);
      return { template: published, source: 'published' };
    }
    return { template: profiled, source: published ? 'published' : 'assumed' };
  });
}
