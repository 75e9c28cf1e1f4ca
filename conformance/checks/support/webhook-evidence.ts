import type { Exchange } from '../../client/http-client.ts';
import type { ReceivedDelivery } from '../../client/webhook-receiver.ts';
import type { CheckContext } from '../../runner/check.ts';
import { readEventually } from './eventually.ts';
import { theOneList } from './one-list.ts';
import { deliveriesPath, deliveryLogTemplate, type WebhookScenario } from './webhook-scenario.ts';

// Evidence helpers the webhook checks share: how a delivery is described and found in the log.

/** The deployment profile's delivery-id header (the interface names none), lower case; undefined: none. */
export const deliveryIdHeader = (ctx: CheckContext) => ctx.deployment.webhookDeliveryIdHeader?.toLowerCase();

/** Receiving evidence as a failure's observation (the exchange is the call that triggered it). */
export const describe = (d: ReceivedDelivery, header: string | undefined) =>
  `${d.method} ${d.path} with ${header ? `${header}: ${d.headers[header.toLowerCase()] ?? '(absent)'}` : `headers ${Object.keys(d.headers).join(', ')}`}; body ${d.rawBody.toString('utf8').slice(0, 160)}`;

/** The delivery log's entries: `data.deliveries` (the simulator's), else the one list in `data`, or nested in an object of it (its payload is not shown). */
export function loggedDeliveries(ex: Exchange): unknown[] {
  return theOneList((ex.json as { data?: unknown } | undefined)?.data, 'deliveries') ?? [];
}

/** The event id a delivery's body names: its top-level `id` (the simulator's payload and CloudEvents alike). */
export function eventIdOf(d: ReceivedDelivery): string | undefined {
  try {
    const id = (JSON.parse(d.rawBody.toString('utf8')) as { id?: unknown }).id;
    return typeof id === 'string' && id ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a delivery carries the same event as `original`: the same body, or a body naming the same event
 * id (a delivery triggered again may state its attempt or time: the payload is not shown).
 * @example received.filter(sameEvent(first))
 */
export const sameEvent = (original: ReceivedDelivery) => {
  const id = eventIdOf(original);
  return (d: ReceivedDelivery) => d.rawBody.equals(original.rawBody) || (id !== undefined && eventIdOf(d) === id);
};

/** Whether an entry holds `value` as one of its own fields' values (any name: `eventId`, `event_id`, …). */
const holds = (entry: Record<string, unknown>, value: string) => Object.values(entry).includes(value);

/**
 * The delivery's entry in the log, found by the delivery-id header (its `id`) or by the event id of its
 * body in any field of the entry (the log's field names are not shown).
 */
export function findLogged(ctx: CheckContext, ex: Exchange, d: ReceivedDelivery) {
  const eventId = eventIdOf(d);
  const idHeader = deliveryIdHeader(ctx);
  const headerId = idHeader === undefined ? undefined : d.headers[idHeader];
  return loggedDeliveries(ex)
    .filter((x): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x))
    .find(
      (x) => (headerId && (x.id === headerId || holds(x, headerId))) || (eventId !== undefined && holds(x, eventId)),
    );
}

/**
 * The delivery log's answer for the scenario's receiver, or a skip when the deployment does not offer it at
 * the profile's path. With `shows`, read again until it lists that delivery (or listConsistencyWaitMs passes:
 * a log served from a replica may lag the delivery).
 */
export async function deliveryLog(ctx: CheckContext, s: WebhookScenario, shows?: ReceivedDelivery) {
  const template = await deliveryLogTemplate(ctx);
  if (!s.webhookId)
    ctx.skip(
      'the creation answer names no receiver id (data.id, the one id of an object in data, or a field of data named as the receiver id) to find its delivery log with',
    );
  const path = await deliveriesPath(ctx, s.webhookId);
  const ex = await readEventually(
    ctx,
    () => ctx.call('GET', path),
    (read) => !shows || read.status !== 200 || findLogged(ctx, read, shows) !== undefined,
  );
  // Declared by the deployment, a 404 there is its failure; assumed (the simulator's path), a skip.
  if (ex.status === 404 && !ctx.declared('webhookDeliveryLogPath'))
    ctx.skip(
      `the delivery log's paths are not shown by the interface and this deployment does not offer GET ${template}: declare its path as webhookDeliveryLogPath in the deployment profile (null: it has none)`,
    );
  return ex;
}
