import type { Exchange } from '../../client/http-client.ts';
import type { ReceivedDelivery } from '../../client/webhook-receiver.ts';
import type { CheckContext } from '../../runner/check.ts';
import { must } from '../../runner/invariant.ts';
import { freshKey } from './connections.ts';
import { idText, resourceNameId } from './one-list.ts';
import {
  deliveryIdHeader,
  deliveryIds,
  deliveryLog,
  describeIds,
  findLogged,
  loggedDeliveries,
  sameEvent,
} from './webhook-evidence.ts';
import { webhookRoute } from './webhook-routes.ts';
import { redeliverPath, redeliverTemplate, type WebhookScenario } from './webhook-scenario.ts';

// Triggering the scenario's delivery again (webhooks.redelivery): where, how, and which arrivals count.

export interface RedeliveryTarget {
  /** The profile's (or the simulator's) path template, for messages. */
  template: string;
  /** The path that triggers the scenario's delivery again. */
  path: string;
  /** The delivery was found in the log (not only by its id header): it must stay there. */
  logged: boolean;
  /** The log's data as read before the delivery was triggered again (JSON), to tell that it recorded the new one. */
  logBefore?: string;
  /** The path for a delivery id of the same form that names no delivery (each letter and digit turned). */
  unknownPath: string;
  /**
   * Other ids the delivery itself carried (its id headers, its event ids), each with its path and whether the
   * log's entry holds it as a whole value: tried where the entry's own id is not found (404).
   */
  alternates?: { id: string; from: string; path: string; inEntry: boolean }[];
  /** The Idempotency-Key of the call an alternate id was taken with (the repeat sends it again). */
  keyTaken?: string;
}

/**
 * An id of the same form that names nothing the kit saw: each digit moved by five, each letter by thirteen (the
 * length, alphabet and separators kept, so a deployment that checks the form still takes it as an id); a number
 * a billion past it.
 * @example turnedId('dlv_8f3a') // 'qyi_3s8n'; turnedId('42') // '1000000042'
 */
export function turnedId(id: string): string {
  // A number of a sequence: turned digits may name another existing row (4 -> 9); far past it names none.
  if (/^\d+$/.test(id)) return String(BigInt(id) + 1_000_000_000n);
  return id.replace(/[0-9a-zA-Z]/g, (c) => {
    if (/\d/.test(c)) return String((Number(c) + 5) % 10);
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** Id fields that name something other than the log entry itself. */
const NOT_THE_ENTRY =
  /^(?:event|webhook|receiver|subscription|endpoint|hook|tenant|request|connection|trace|correlation|idempotency|client|account|user|message[-_]?group)[-_]?id$/i;

/**
 * A log entry's own id, to trigger it again by: its `id`, else a field named as a delivery's, attempt's or
 * log entry's id (`deliveryId`, `attempt_id`, `logId`), else another id field that names no other thing, else
 * the value of the delivery's id header the entry holds as a field.
 * @example entryId({ deliveryId: 'dlv_1', status: 'sent' }, delivery, undefined, 'wh_1') // 'dlv_1'
 */
export function entryId(
  entry: Record<string, unknown>,
  d: ReceivedDelivery,
  idHeader: string | undefined,
  webhookId: string | undefined,
): string | undefined {
  const own = idText(entry.id) ?? resourceNameId(entry.name);
  if (own) return own;
  // A delivery's id before an attempt's: a log listing attempts triggers the delivery again by its id. Then
  // the entry's own id under another name (`logId`, `log_id`): a field named as an id of something else
  // (the event, the receiver, the tenant) is not the entry's.
  const ownId = Object.entries(entry).find(
    ([k, v]) => /^[a-z]+_?id$/i.test(k) && !NOT_THE_ENTRY.test(k) && idText(v) !== undefined,
  );
  for (const name of [/^delivery[-_]?id$/i, /^attempt[-_]?id$/i, /^(?:log|message|entry|record)[-_]?id$/i]) {
    const named = Object.entries(entry).find(([k, v]) => name.test(k) && idText(v) !== undefined);
    if (named) return idText(named[1]);
  }
  if (ownId) return idText(ownId[1]);
  const values = new Set(Object.values(entry).filter((v): v is string => typeof v === 'string'));
  return deliveryIds(d, idHeader)
    .map((x) => x.value)
    .find((v) => v !== webhookId && values.has(v));
}

/**
 * Where the scenario's delivery is triggered again: its id from the delivery log (or the profile's
 * delivery-id header), or a skip saying why there is nothing to trigger.
 */
export async function redeliveryTarget(
  ctx: CheckContext,
  s: WebhookScenario & { delivery: ReceivedDelivery },
): Promise<RedeliveryTarget> {
  const template = await redeliverTemplate(ctx);
  const log = await deliveryLog(ctx, s, s.delivery);
  const logged = findLogged(ctx, log, s.delivery, s.webhookId) as Record<string, unknown> | undefined;
  const idHeader = deliveryIdHeader(ctx);
  // The entry's id, else the id header the profile declares (the deployment's word), else what the entry holds.
  const declared = idHeader === undefined ? undefined : s.delivery.headers[idHeader];
  const id =
    idText(logged?.id) ??
    resourceNameId(logged?.name) ??
    declared ??
    (logged && entryId(logged, s.delivery, idHeader, s.webhookId));
  if (!id)
    ctx.skip(
      `the delivery is neither in the log (${log.status === 200 ? `${loggedDeliveries(log).length} entries` : `read refused: ${log.status}`}; looked for ${describeIds(deliveryIds(s.delivery, idHeader))} in every field of each) nor names its id in a header the profile declares (webhookDeliveryIdHeader: ${idHeader ?? 'null'}): nothing to trigger again`,
    );
  const webhookId = must(s.webhookId, 'deliveryLog skips without a webhookId');
  return {
    template,
    path: await redeliverPath(ctx, webhookId, id),
    logged: logged !== undefined,
    ...(log.status === 200
      ? { logBefore: JSON.stringify((log.json as { data?: unknown } | undefined)?.data ?? log.json) }
      : {}),
    unknownPath: await redeliverPath(ctx, webhookId, turnedId(id)),
    alternates: await alternatesOf(ctx, webhookId, id, s.delivery, logged, idHeader),
  };
}

/** How many other ids of the delivery a 404 for the log's id is followed by (each one POST). */
const MAX_ALTERNATES = 3;

async function alternatesOf(
  ctx: CheckContext,
  webhookId: string,
  tried: string,
  d: ReceivedDelivery,
  logged: Record<string, unknown> | undefined,
  idHeader: string | undefined,
): Promise<RedeliveryTarget['alternates']> {
  if (!logged) return [];
  const values = new Set(
    Object.values(logged)
      .map(idText)
      .filter((v) => v !== undefined),
  );
  // Those the entry holds first: where one of them is taken, the log names the delivery by it (no fault).
  const ids = deliveryIds(d, idHeader)
    .filter((x) => x.value !== tried && x.value !== webhookId)
    .sort((a, b) => Number(values.has(b.value)) - Number(values.has(a.value)));
  return Promise.all(
    ids.slice(0, MAX_ALTERNATES).map(async (x) => ({
      id: x.value,
      from: x.from,
      path: await redeliverPath(ctx, webhookId, x.value),
      inEntry: values.has(x.value),
    })),
  );
}

/**
 * After the log's id answered 404 at the redelivery path: the delivery's other ids tried there. One the entry
 * holds is the id the log names it by (taken from then on); one it does not hold, taken where the log's is not
 * found, is a log that names its deliveries by nothing their re-trigger takes (judged). Undefined: none taken.
 */
async function byAlternate(
  ctx: CheckContext,
  target: RedeliveryTarget,
  key: string | false,
  send: (path: string, key: string | false) => Promise<Exchange>,
) {
  for (const [i, alt] of (target.alternates ?? []).entries()) {
    // A key of its own: a deployment may keep the 404 under the first one (the repeat sends this one again).
    const altKey = key === false ? false : `${key}-alt${i}`.slice(0, 128);
    const ex = await send(alt.path, altKey);
    if (ex.status !== 200) continue;
    if (altKey !== false) target.keyTaken = altKey;
    const logPath = target.path;
    target.path = alt.path;
    target.unknownPath = alt.path.replace(encodeURIComponent(alt.id), encodeURIComponent(turnedId(alt.id)));
    if (alt.inEntry)
      ctx.note(`POST ${logPath} answered 404; the entry's ${alt.id} (${alt.from}) is taken: used from then on`);
    else
      ctx.expect.that(false, {
        expected: `the delivery log names each delivery by an id its re-trigger takes ("viewing deliveries and re-triggering them selectively"): the entry's own id is found at POST ${target.template}`,
        observed: `POST ${logPath} (the log entry's id) answered 404, while POST ${alt.path} (${alt.from}, a value the entry does not hold) answered 200`,
        exchange: ex,
      });
    return ex;
  }
  return undefined;
}

/** POST to the redelivery path with `key` (false: none); a 404 at the simulator's assumed path skips (declared, it is judged). */
export async function redeliver(
  ctx: CheckContext,
  target: RedeliveryTarget,
  key: string | false,
  o: { path?: string; tenant?: string; base?: 'alt' } = {},
): Promise<Exchange> {
  // Its payload is not shown: sent without a body, and, when that is refused as a request (400, 415: a
  // deployment that takes every POST as JSON), as an empty JSON object from then on in the run.
  const form = await ctx.shared('redeliver-form', async () => ({ json: false }));
  const send = (path = o.path ?? target.path, k = key) =>
    ctx.call('POST', path, {
      headers: k === false ? {} : { 'Idempotency-Key': k },
      ...(o.tenant ? { tenant: o.tenant } : {}),
      ...(o.base ? { base: o.base } : {}),
      ...(form.json ? { json: {} } : {}),
    });
  let ex = await send();
  if (!form.json && (ex.status === 400 || ex.status === 415)) {
    form.json = true;
    ctx.note(`POST ${target.template} without a body answered ${ex.status}: sent as {} (JSON) from then on`);
    ex = await send();
  }
  // A 404 to another path or tenant is that call's answer (the entry does not exist there), not the route's.
  // The log's id not found: the delivery's other ids, once per run (the first call; later ones use what was taken).
  if (ex.status === 404 && !o.path && !o.tenant && !o.base && target.alternates?.length) {
    const taken = await byAlternate(ctx, target, key, send);
    target.alternates = [];
    if (taken) return taken;
  }
  if (ex.status === 404 && !ctx.declared('webhookRedeliverPath') && !o.path && !o.tenant && !o.base) {
    // Said as it is: a route the deployment publishes, filled with ids the kit read from its answers (which
    // may not be the ones it takes), or the simulator's path, assumed.
    const published = (await webhookRoute(ctx, 'webhookRedeliverPath')).source === 'published';
    ctx.skip(
      published
        ? `POST ${target.template} (the route the deployment publishes) answered 404 for ${target.path}: the ids the kit filled in may not be the ones it takes (the log's entries and payloads are not shown); declare webhookRedeliverPath and webhookDeliveryIdHeader in the deployment profile`
        : `POST ${target.template} answered 404: no re-trigger at the path the kit assumed (the interface does not show its path, and no published route fits one); declare it as webhookRedeliverPath in the deployment profile (null: it has none)`,
    );
  }
  return ex;
}

/** The requests to the scenario's receiver that carry the scenario's event (the first delivery and every repeat). */
export const arrivals = (s: WebhookScenario & { delivery: ReceivedDelivery }) => {
  const same = sameEvent(s.delivery);
  return (d: ReceivedDelivery) => d.path.includes(s.label) && same(d);
};

/**
 * Triggers again the delivery `s.delivery` by what its receiver's log (read at `at`) names it: the entry's own id,
 * then the delivery's other ids the entry holds, the first not answered 404 (a log of attempts re-triggered by its
 * delivery id). Each call with a fresh key; never skips at a 404 (the last answer is returned). `none` says why
 * nothing was sent: the log names no delivery to trigger.
 * @example const t = await triggerLogged(ctx, { ...s, delivery }); if ('ex' in t) ctx.expect.status(t.ex, 200, '...');
 */
export async function triggerLogged(
  ctx: CheckContext,
  s: WebhookScenario & { delivery: ReceivedDelivery },
  at: { tenant?: string } = {},
): Promise<{ ex: Exchange; path: string; tried: string[] } | { none: string }> {
  const log = await deliveryLog(ctx, s, s.delivery, at);
  const entry = log.status === 200 ? findLogged(ctx, log, s.delivery, s.webhookId) : undefined;
  const own = entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : undefined;
  const deliveryId = own && entryId(own, s.delivery, deliveryIdHeader(ctx), s.webhookId);
  if (!own || !deliveryId || !s.webhookId)
    return { none: `the delivery log (${log.status}) names no delivery to trigger again` };
  const values = new Set(Object.values(own).map(idText));
  const held = deliveryIds(s.delivery, deliveryIdHeader(ctx)).filter(
    (x) => values.has(x.value) && x.value !== s.webhookId,
  );
  const tried = [...new Set([deliveryId, ...held.map((x) => x.value)])].slice(0, 3);
  let path = '';
  let ex: Exchange | undefined;
  for (const id of tried) {
    path = await redeliverPath(ctx, s.webhookId, id);
    ex = await redeliver(ctx, { template: path, path, logged: true, unknownPath: path }, freshKey(ctx), {
      path,
      ...at,
    });
    if (ex.status !== 404) break;
  }
  return { ex: must(ex, 'at least the entry id was tried'), path, tried };
}
