import { ROUTE_BY_ID } from '../../../simulator/contract/route-table.ts';
import { parseSignatureHeader, verifyWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { Exchange } from '../../client/http-client.ts';
import {
  type KitReceiver,
  MAX_RECEIVED_BODY as RECEIVER_MAX_BODY,
  type ReceivedDelivery,
  startKitReceiver,
} from '../../client/webhook-receiver.ts';
import type { CheckContext } from '../../runner/check.ts';
import { createLabelledConnection } from './connections.ts';
import { namesValue } from './names-value.ts';
import { receiverIdOf } from './one-list.ts';
import { type KeyProof, keyAtPath, type SigningKey, signingKeyOf } from './signing-key.ts';
import { companionEvent, testEvent } from './webhook-events.ts';
import { webhookRoute } from './webhook-routes.ts';
import { looksSigned } from './webhook-signature-form.ts';

/**
 * How long the kit waits for a delivery: the deployment profile's webhookDeliveryWaitMs, which
 * --webhook-timeout / NCS_WEBHOOK_TIMEOUT override (default 10 s: the simulator delivers at once, a
 * loaded staging deployment may take seconds; the wait ends as soon as the delivery arrives).
 */
export const deliveryWaitMs = (ctx: CheckContext) => ctx.deployment.webhookDeliveryWaitMs;

const pathOf = (id: string) => {
  const route = ROUTE_BY_ID.get(id);
  if (!route) throw new Error(`the route table has no ${id}`);
  return route.path;
};
export const webhooksPath = () => pathOf('createWebhook');
/**
 * Removes a receiver the kit registered when the run ends (the deployment profile's webhookDeletePath,
 * else the simulator's DELETE path); a deployment without such a path keeps it, and the run says so.
 * @example removeAtRunEnd(ctx, 'wh_123'); removeAtRunEnd(ctx, 'wh_456', 'second-tenant');
 */
export function removeAtRunEnd(ctx: CheckContext, webhookId: string, tenant?: string): void {
  const template =
    ctx.deployment.webhookDeletePath === undefined ? pathOf('deleteWebhook') : ctx.deployment.webhookDeletePath;
  if (template === null) return;
  ctx.atRunEnd(async () => {
    await ctx.call('DELETE', template.replace('{webhookId}', encodeURIComponent(webhookId)), {
      headers: { 'Idempotency-Key': ctx.label('cleanup') },
      retry: false,
      // A receiver another tenant registered is that tenant's to remove.
      ...(tenant ? { tenant } : {}),
    });
  });
}

/**
 * The delivery log's path template: the deployment profile's, else the one the deployment publishes, else
 * the simulator's (the interface does not show it); a skip naming the profile field when it has none.
 * @example await deliveryLogTemplate(ctx) // '/api/public/v1/webhooks/{webhookId}/deliveries'
 */
export async function deliveryLogTemplate(ctx: CheckContext): Promise<string> {
  const { template } = await webhookRoute(ctx, 'webhookDeliveryLogPath');
  if (template === null)
    ctx.skip(
      'the deployment profile declares no delivery log (webhookDeliveryLogPath: null; the interface does not show its paths)',
    );
  return template;
}
/** The delivery log of one receiver (a skip when the deployment declares none). */
export const deliveriesPath = async (ctx: CheckContext, webhookId: string) =>
  (await deliveryLogTemplate(ctx)).replace('{webhookId}', encodeURIComponent(webhookId));

/** The redelivery path template (declared, published or the simulator's), or a skip naming the field when declared none. */
export async function redeliverTemplate(ctx: CheckContext): Promise<string> {
  const { template } = await webhookRoute(ctx, 'webhookRedeliverPath');
  if (template === null)
    ctx.skip(
      'the deployment profile declares no way to trigger a delivery again (webhookRedeliverPath: null; the interface does not show the path)',
    );
  return template;
}
/** Where one logged delivery is triggered again (a skip when the deployment declares no way). */
export const redeliverPath = async (ctx: CheckContext, webhookId: string, deliveryId: string) =>
  (await redeliverTemplate(ctx))
    .replace('{webhookId}', encodeURIComponent(webhookId))
    .replace('{deliveryId}', encodeURIComponent(deliveryId));

// The profile's or guessed event, for calls that need only a registration body (limits, idempotency).

/**
 * The header that carries a delivery's signature: the profile's, or else the one whose value is meant
 * as one (a t and a v1, in any spelling: `looksSigned`; the interface does not show the header's name),
 * so a value that strays from the form is judged by `formProblems`, not taken for a missing header.
 * Undefined when none is.
 * @example signatureHeaderOf(ctx, delivery) // 'ncs-signature'
 */
export function signatureHeaderOf(ctx: CheckContext, d: ReceivedDelivery): string | undefined {
  const declared = ctx.deployment.webhookSignatureHeader;
  if (declared) return declared.toLowerCase();
  return Object.keys(d.headers).find((name) => looksSigned(String(d.headers[name])));
}

/** What the deliveries received tell about the signing key: which value signs them, at their own t. */
function keyProof(
  ctx: CheckContext,
  deliveries: readonly ReceivedDelivery[],
  headers: Record<string, string>,
): KeyProof {
  const signed = deliveries.flatMap((d) => {
    const header = signatureHeaderOf(ctx, d);
    const value = header === undefined ? undefined : d.headers[header];
    const parsed = value === undefined ? undefined : parseSignatureHeader(value);
    return value !== undefined && parsed ? [{ d, value, t: parsed.t }] : [];
  });
  return {
    signed: signed.length > 0,
    verifies: (key) => key.length > 0 && signed.some((s) => verifyWebhook(s.d.rawBody, s.value, key, { now: s.t }).ok),
    headers,
  };
}

/** What the kit's receiver keeps during a run: a flooding deployment cannot grow it without bound. */
const RECEIVER_MAX_BODIES = 500;
const RECEIVER_MAX_BYTES = 16 * 1024 * 1024;

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[?::1\]?)$/i;

/** The kit's receiver on 127.0.0.1, started once per run and stopped when the run ends. */
export function kitReceiver(ctx: CheckContext): Promise<KitReceiver> {
  return ctx.shared('webhook-receiver', async () => {
    const port = ctx.deployment.webhookReceiverPort;
    const receiver = await startKitReceiver(port, {
      maxBodies: RECEIVER_MAX_BODIES,
      maxBytes: RECEIVER_MAX_BYTES,
    }).catch((err: NodeJS.ErrnoException) =>
      ctx.skip(
        `the kit's webhook receiver cannot listen on 127.0.0.1:${port} (${err.code ?? err.message}): choose another webhookReceiverPort`,
      ),
    );
    ctx.atRunEnd(async () => {
      const { dropped, cut } = receiver.stats;
      if (dropped > 0 || cut > 0)
        ctx.notice(
          `the kit's webhook receiver kept at most ${RECEIVER_MAX_BODIES} requests and ${RECEIVER_MAX_BYTES} bytes: ${dropped} older request${dropped === 1 ? '' : 's'} dropped, ${cut} bod${cut === 1 ? 'y' : 'ies'} cut at ${RECEIVER_MAX_BODY} bytes`,
        );
      await receiver.close();
    });
    return receiver;
  });
}

/** Where the deployment can reach the receiver (deployment profile), or a skip explaining how to make it reachable. */
export function receiverBaseUrl(ctx: CheckContext, receiver: KitReceiver): string {
  const setting = ctx.deployment.webhookReceiverUrl;
  if (setting === 'loopback') return receiver.origin;
  if (setting) return setting.replace(/\/+$/, '');
  if (LOOPBACK.test(new URL(ctx.target.baseUrl).hostname)) return receiver.origin;
  ctx.skip(
    `the deployment is not on this machine, so it cannot deliver to the kit's receiver on 127.0.0.1:${receiver.port}: set webhookReceiverUrl in the deployment profile (a public URL forwarded to webhookReceiverPort), or "loopback"`,
  );
}

export interface WebhookScenario {
  receiver: KitReceiver;
  /** The URL registered; the receiver sees paths containing `label`. */
  url: string;
  label: string;
  /** The event names the receiver was registered with (the test event last). */
  events: string[];
  registration: Exchange;
  webhookId?: string;
  /** The signing key from the creation answer (deployment profile webhookSecretField, or discovered). */
  secret?: string;
  /** Where the creation answer carries the key, and how the kit knows (or why it found none). */
  signingKey?: SigningKey;
  /** The labelled connection whose creation triggers the delivery. */
  connection?: { ex: Exchange; id?: string };
  /** Deliveries to this receiver that carry the connection's id. */
  deliveries: ReceivedDelivery[];
  /** The Service-Version the receiver was registered with, where not the current one (read as a current caller). */
  registeredAs?: string;
}

/** Whether a received request belongs to this scenario and carries `id`. */
export const deliveryFor = (s: { label: string }, id: string) => (d: ReceivedDelivery) =>
  d.path.includes(s.label) && namesValue(d.rawBody, id);

/**
 * Registers a receiver of the kit for the deployment profile's test event, creates a labelled
 * connection (which triggers that event) and waits for the delivery. Once per run, shared by the
 * webhooks.* checks; each judges its own part.
 */
export function webhookScenario(ctx: CheckContext): Promise<WebhookScenario> {
  return ctx.shared('webhook-scenario', async () => {
    const receiver = await kitReceiver(ctx);
    const label = ctx.label('receiver');
    const url = `${receiverBaseUrl(ctx, receiver)}/${label}`;
    const test = (await testEvent(ctx)).name;
    // Two events where the deployment publishes a second (the test event last: a registration keeping
    // only the head of its list then never delivers it); one, as before, if two are refused.
    const companion = await companionEvent(ctx, test);
    const register = (events: string[]) =>
      ctx.call('POST', webhooksPath(), { json: { url, events }, headers: { 'Idempotency-Key': ctx.label('key') } });
    let events = companion ? [companion, test] : [test];
    let registration = await register(events);
    if (companion && registration.status === 400) {
      ctx.note(`a registration with the events [${events.join(', ')}] was refused 400: registered with [${test}]`);
      events = [test];
      registration = await register(events);
    }
    const scenario: WebhookScenario = { receiver, url, label, events, registration, deliveries: [] };
    if (registration.status < 200 || registration.status >= 300) return scenario;
    const data = (registration.json as { data?: Record<string, unknown> } | undefined)?.data ?? {};
    // The receiver's id: data.id, or nested (data.webhook.id): the answer's fields are not shown.
    const webhookId = receiverIdOf(data, url);
    if (webhookId) {
      scenario.webhookId = webhookId;
      removeAtRunEnd(ctx, webhookId);
    }
    // A venue's name beyond ASCII ("e.g. the name of the venue"): a delivery's body then holds bytes a
    // signature over text in another encoding (Latin-1) gets wrong; the signature is over the raw bytes.
    const connection = await createLabelledConnection(ctx, 'webhook', {}, ' Café Ümlaut');
    scenario.connection = { ex: connection.ex, ...(connection.id ? { id: connection.id } : {}) };
    if (connection.id)
      scenario.deliveries = await receiver.waitFor(
        deliveryFor(scenario, connection.id),
        deliveryWaitMs(ctx),
        undefined,
        ctx.signal,
      );
    // Read after the deliveries: a delivery's signature can tell which value of the answer is the key.
    const proof = keyProof(ctx, scenario.deliveries, registration.headers);
    scenario.signingKey = signingKeyOf(
      data,
      ctx.deployment.webhookSecretField,
      ctx.declared('webhookSecretField'),
      proof,
    );
    if (scenario.signingKey.found) {
      scenario.secret = scenario.signingKey.secret;
      redactSigningKeys(ctx, scenario.signingKey.path);
    }
    return scenario;
  });
}

/**
 * Keeps every signing key of the run out of its reports, wherever the answer put it: the value at the path
 * the scenario found its key at (by name or by the signature it verifies) in every registration answer of
 * the run, now and again when the run ends (each receiver has its own key; the field names are not shown).
 * @example redactSigningKeys(ctx, 'secret.value');
 */
export function redactSigningKeys(ctx: CheckContext, path: string): void {
  const sweep = () => {
    for (const { ex } of ctx.exchanges()) {
      if (ex.method !== 'POST' || !new URL(ex.url).pathname.endsWith(webhooksPath())) continue;
      const key = keyAtPath((ex.json as { data?: unknown } | undefined)?.data, ex.headers, path);
      if (key) ctx.redact(key, 'NCS_SIGNING_KEY');
    }
  };
  sweep();
  ctx.atRunEnd(sweep);
}

/** Where the scenario's registration answer carried its signing key (declared or found), if the kit knows. */
export async function signingKeyPath(ctx: CheckContext): Promise<string | undefined> {
  const key = (await webhookScenario(ctx)).signingKey;
  return key?.found ? key.path : undefined;
}

/** The scenario with a delivery to judge, or a skip naming the check that reports why there is none. */
export async function requireDelivery(ctx: CheckContext): Promise<WebhookScenario & { delivery: ReceivedDelivery }> {
  const s = await webhookScenario(ctx);
  const delivery = s.deliveries[0];
  if (!delivery)
    ctx.skip("no delivery arrived at the kit's receiver (see webhooks.registration and webhooks.delivery-arrives)");
  return { ...s, delivery };
}

/**
 * The signing keys the run's registrations were issued (of `tenant` only, if given): by the name the profile
 * declares or the kit recognises, else at `path` (where the scenario's key verified its delivery).
 * @example issuedSigningKeys(ctx, 'data.secret', 'harbour-kitchens').size // 3
 */
export function issuedSigningKeys(ctx: CheckContext, path: string | undefined, tenant?: string): Set<string> {
  const out = new Set<string>();
  for (const { ex } of ctx.exchanges()) {
    if (ex.method !== 'POST' || ex.status !== 200 || !new URL(ex.url).pathname.endsWith(webhooksPath())) continue;
    const sent = Object.entries(ex.requestHeaders).find(([k]) => k.toLowerCase() === 'x-service-tenant')?.[1];
    if (tenant !== undefined && sent !== tenant) continue;
    const data = (ex.json as { data?: unknown } | undefined)?.data;
    const signing = signingKeyOf(data, ctx.deployment.webhookSecretField, ctx.declared('webhookSecretField'));
    const key = signing.found ? signing.secret : path === undefined ? undefined : keyAtPath(data, ex.headers, path);
    if (key) out.add(key);
  }
  return out;
}
