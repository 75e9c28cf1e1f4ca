import type { Exchange } from '../../client/http-client.ts';
import type { ReceivedDelivery } from '../../client/webhook-receiver.ts';
import type { CheckContext } from '../../runner/check.ts';
import { deliveriesPath, deliveryLogTemplate, type WebhookScenario } from './webhook-scenario.ts';

// Evidence helpers the webhook checks share: how a delivery is described and found in the log.

/** The deployment profile's delivery-id header (the interface names none), lower case; undefined: none. */
export const deliveryIdHeader = (ctx: CheckContext) => ctx.deployment.webhookDeliveryIdHeader?.toLowerCase();

/** Receiving evidence as a failure's observation (the exchange is the call that triggered it). */
export const describe = (d: ReceivedDelivery, header: string | undefined) =>
  `${d.method} ${d.path} with ${header ? `${header}: ${d.headers[header.toLowerCase()] ?? '(absent)'}` : `headers ${Object.keys(d.headers).join(', ')}`}; body ${d.rawBody.toString('utf8').slice(0, 160)}`;

/** The delivery's entry in the log, found by the delivery-id header or the event id in the body. */
export function findLogged(ctx: CheckContext, ex: Exchange, d: ReceivedDelivery) {
  const list = (ex.json as { data?: { deliveries?: unknown } } | undefined)?.data?.deliveries;
  let eventId: unknown;
  try {
    eventId = (JSON.parse(d.rawBody.toString('utf8')) as { id?: unknown }).id;
  } catch {
    eventId = undefined;
  }
  const idHeader = deliveryIdHeader(ctx);
  const headerId = idHeader === undefined ? undefined : d.headers[idHeader];
  return (Array.isArray(list) ? (list as { id?: unknown; eventId?: unknown }[]) : []).find(
    (x) => (headerId && x.id === headerId) || (eventId !== undefined && x.eventId === eventId),
  );
}

/** The delivery log's answer for the scenario's receiver, or a skip when the deployment does not offer it at the profile's path. */
export async function deliveryLog(ctx: CheckContext, s: WebhookScenario) {
  const template = deliveryLogTemplate(ctx);
  if (!s.webhookId) ctx.skip("the creation answer has no data.id to find the receiver's delivery log with");
  const ex = await ctx.call('GET', deliveriesPath(ctx, s.webhookId));
  // Declared by the deployment, a 404 there is its failure; assumed (the simulator's path), a skip.
  if (ex.status === 404 && !ctx.declared('webhookDeliveryLogPath'))
    ctx.skip(
      `the delivery log's paths are not shown by the interface and this deployment does not offer GET ${template}: declare its path as webhookDeliveryLogPath in the deployment profile (null: it has none)`,
    );
  return ex;
}
