import type { Exchange } from '../../client/http-client.ts';
import type { ReceivedDelivery } from '../../client/webhook-receiver.ts';
import type { CheckContext } from '../../runner/check.ts';
import { nextPage } from './audit-paging.ts';
import { largestDocumentedPage } from './documented-page.ts';
import { readEventually } from './eventually.ts';
import { idText, theOneList } from './one-list.ts';
import { openApiExchange } from './openapi.ts';
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

const isEntry = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);

/** The `id` of each event a parsed body carries: an object's own, every item's of an array (a batch), or
 * every item's of the one list an object without an id wraps (`{events: […]}`). */
function bodyIds(body: unknown): string[] {
  // `id`, else a field named as the event's id (`eventId`, `event_id`): the payload is not shown.
  const idOf = (x: unknown) => {
    if (!isEntry(x)) return [];
    // A number is an id too (an autoincrement `"id": 1`: the payload is not shown), read as its text.
    const value = idText(x.id) ?? idText(Object.entries(x).find(([k]) => /^event_?id$/i.test(k))?.[1]);
    return value ? [value] : [];
  };
  if (Array.isArray(body)) return body.flatMap(idOf);
  if (!isEntry(body)) return [];
  const own = idOf(body);
  if (own.length > 0) return own;
  const lists = Object.values(body).filter((v): v is unknown[] => Array.isArray(v) && v.some(isEntry));
  return lists.length === 1 ? (lists[0] ?? []).flatMap(idOf) : [];
}

/** The event ids a delivery's body names: `bodyIds` of its JSON (none when it is not JSON). */
export function eventIdsOf(d: ReceivedDelivery): string[] {
  try {
    return bodyIds(JSON.parse(d.rawBody.toString('utf8')));
  } catch {
    return [];
  }
}

/** The (first) event id a delivery's body names: the simulator's payload, CloudEvents, a batch's first event. */
export const eventIdOf = (d: ReceivedDelivery): string | undefined => eventIdsOf(d)[0];

/**
 * Header names that carry an id: ending in "id" (`ce-id` of CloudEvents' binary mode, Standard Webhooks'
 * `webhook-id`, `x-event-id`, `x-request-id`) or naming the delivery (`X-GitHub-Delivery`). The interface
 * names none; which one names the event, the delivery or something else the log tells.
 */
const ID_HEADER = /(?:id|delivery)$/i;
/**
 * Shorter values of a header only named like an id are counters (an attempt number), not ids; a header
 * naming the delivery (`Webhook-Delivery: 1`, `X-Delivery-Id: 7`) carries its id whatever its length.
 */
const MIN_HEADER_ID = 6;
const DELIVERY_HEADER = /delivery/i;

/** An id a delivery carries and where (for messages). */
export interface DeliveryId {
  value: string;
  from: string;
  /** Taken from a header only named like an id: it may name the receiver or the tenant rather than the event. */
  guessed?: true;
  /** The header's name says it names the delivery (`Webhook-Delivery`): a number in it may equal the receiver's. */
  namesDelivery?: true;
}

/**
 * Every id a delivery carries, best first: the profile's delivery-id header, a header naming the delivery,
 * the event ids of its body, then the value of every other header named like an id (`ID_HEADER`).
 * @example deliveryIds(d, 'ncs-delivery') // [{ value: 'evt_1', from: 'the body' }, { value: '9f…', from: 'header ce-id' }]
 */
export function deliveryIds(d: ReceivedDelivery, declaredHeader?: string): DeliveryId[] {
  const declared = declaredHeader === undefined ? undefined : d.headers[declaredHeader];
  const ids = eventIdsOf(d);
  const out: DeliveryId[] = declared ? [{ value: declared, from: `header ${declaredHeader}` }] : [];
  const fromBody = ids.map((value, i) => ({ value, from: ids.length > 1 ? `the body's event ${i + 1}` : 'the body' }));
  const rest: DeliveryId[] = [];
  // A header naming the delivery before the body's event ids: with numbered ids (an event 10, a delivery 10
  // of two counters) the body's number may be another entry's own id.
  for (const [name, value] of Object.entries(d.headers)) {
    if (!ID_HEADER.test(name) || name === declaredHeader || value === '' || /\s/.test(value)) continue;
    if (DELIVERY_HEADER.test(name)) out.push({ value, from: `header ${name}`, guessed: true, namesDelivery: true });
    else if (value.length >= MIN_HEADER_ID) rest.push({ value, from: `header ${name}`, guessed: true });
  }
  out.push(...fromBody, ...rest);
  return out.filter((id, i) => out.findIndex((o) => o.value === id.value) === i);
}

/** The ids of `deliveryIds` as a message: what the kit looked for. */
export const describeIds = (ids: readonly DeliveryId[]) =>
  ids.length
    ? ids
        .slice(0, 6)
        .map((i) => `${i.from} ${i.value}`)
        .join(', ')
    : 'none (the body names no event id, no header is named like an id)';

/**
 * Whether a delivery carries the same event as `original`: the same body, or a body naming one of the
 * same event ids (a delivery triggered again may state its attempt or time: the payload is not shown).
 * @example received.filter(sameEvent(first))
 */
export const sameEvent = (original: ReceivedDelivery) => {
  const ids = new Set(eventIdsOf(original));
  return (d: ReceivedDelivery) => d.rawBody.equals(original.rawBody) || eventIdsOf(d).some((id) => ids.has(id));
};

/**
 * Whether an entry holds `value` as one of its fields' values, in a list of them (`eventIds: […]`) or one
 * object further in (`event: {id}`): the log's field names are not shown.
 */
const NUMBERED_ID = /^(?:(?:delivery|event|attempt|message)[-_]?)?ids?$/i;

export function holds(entry: unknown, value: string, depth = 0, key = ''): boolean {
  // A number written as text (ids counted per table, served as strings) is read as a number is, below.
  if (entry === value) return !/^\d+$/.test(value) || depth === 0 || NUMBERED_ID.test(key);
  // A number names the delivery only in a field named as its id or its event's (`id`, `deliveryId`, `event_id`,
  // `eventIds`): not a status 200, an attempt 1, or the receiver's `webhook_id` 1 that every entry of its log holds.
  if (typeof entry === 'number') return NUMBERED_ID.test(key) && idText(entry) === value;
  if (depth > 2 || !entry || typeof entry !== 'object') return false;
  return Object.entries(entry).some(([k, v]) => holds(v, value, depth + 1, Array.isArray(entry) ? key : k));
}

/**
 * The delivery's entry in the log: found by one of its ids (`deliveryIds`: the profile's delivery-id header,
 * its body's event ids, its headers named like an id) in any field of the entry. A header's id held by every
 * entry of a longer log, or equal to the receiver's id, names the receiver or the tenant, not this delivery;
 * an id only one entry holds is preferred to one several hold (a connection's id, named by its events).
 */
/**
 * Whether a log entry names the delivery by `id`: its own id, or any field's value. A number from the body is
 * the event's and is looked for outside the entry's own `id` (that is the delivery's, of another counter).
 */
function matches(entry: Record<string, unknown>, id: DeliveryId): boolean {
  if (id.from.startsWith('the body') && /^\d+$/.test(id.value)) {
    const { id: _own, ...fields } = entry;
    return holds(fields, id.value);
  }
  return idText(entry.id) === id.value || holds(entry, id.value);
}

export function findLogged(ctx: CheckContext, ex: Exchange, d: ReceivedDelivery, webhookId?: string) {
  const entries = loggedDeliveries(ex).filter(isEntry);
  const holding = deliveryIds(d, deliveryIdHeader(ctx))
    .filter((id) => !id.guessed || id.namesDelivery || id.value !== webhookId)
    .map((id) => {
      // An entry whose own id it is, first: a value other fields of many entries hold names that one.
      const own = id.from.startsWith('the body') ? [] : entries.filter((x) => idText(x.id) === id.value);
      return { id, h: own.length === 1 ? own : entries.filter((x) => matches(x, id)) };
    })
    .filter(({ id, h }) => h.length > 0 && (!id.guessed || entries.length === 1 || h.length < entries.length))
    .map(({ h }) => h);
  return (holding.find((h) => h.length === 1) ?? holding[0])?.[0];
}

/** At most this many pages of a receiver's delivery log are read looking for one delivery. */
const LOG_PAGES = 10;
/** The page size asked at most, where the document states a larger maximum. */
const LARGEST_PAGE = 200;

/**
 * The delivery log's answer for the scenario's receiver, or a skip when the deployment does not offer it at
 * the profile's path. With `shows`, read again until it lists that delivery (or listConsistencyWaitMs passes:
 * a log served from a replica may lag the delivery).
 */
export async function deliveryLog(
  ctx: CheckContext,
  s: WebhookScenario,
  shows?: ReceivedDelivery,
  at: { base?: 'alt'; tenant?: string } = {},
) {
  const template = await deliveryLogTemplate(ctx);
  if (!s.webhookId)
    ctx.skip(
      'the creation answer names no receiver id (data.id, the one id of an object in data, or a field of data named as the receiver id) to find its delivery log with',
    );
  const path = await deliveriesPath(ctx, s.webhookId);
  const { webhookId } = s;
  const listed = (read: Exchange) =>
    !shows || read.status !== 200 || findLogged(ctx, read, shows, webhookId) !== undefined;
  // A paged log (its paging is not shown either: a Link header, `@odata.nextLink`, a next page number) is
  // followed until the page that lists the delivery; that page is the answer judged.
  // Asked for the largest page the deployment's document allows (a log of one delivery a page by default would
  // otherwise take more pages than the kit reads); a 400 to that size, and the log is read as it pages itself.
  const [bare = path, search = ''] = path.split('?');
  const largest = largestDocumentedPage((await openApiExchange(ctx)).json, bare, LARGEST_PAGE);
  // Refused once (the size not taken after all), the log is read as it pages itself from then on: no call
  // spent twice on each read while a busy deployment's rate limit counts them.
  // Remembered for the run: every check reading the log.
  const size = await ctx.shared('delivery-log-size', async () => ({ refused: false }));
  const firstPage = async () => {
    if (!largest || size.refused) return ctx.call('GET', path, at);
    const query = Object.fromEntries([...new URLSearchParams(search), ...Object.entries(largest)]);
    const sized = await ctx.call('GET', bare, { query, ...at });
    if (sized.status !== 400) return sized;
    const plain = await ctx.call('GET', path, at);
    // Remembered only where the log itself answers without the size: a 400 to both refused something else.
    if (plain.status === 200) size.refused = true;
    return plain;
  };
  const readPaged = async () => {
    let page = await firstPage();
    for (let i = 1; i < LOG_PAGES && !listed(page); i++) {
      const next = nextPage(page);
      if (!next) break;
      const more = await ctx.call('GET', next, at);
      if (more.status !== 200) break;
      page = more;
    }
    return page;
  };
  const ex = await readEventually(ctx, readPaged, listed);
  // Still not listed where the log offers more pages than the kit reads: out of its reach, not missing.
  if (!listed(ex) && nextPage(ex))
    ctx.skip(
      `the delivery is not on the first ${LOG_PAGES} pages of GET ${path} and the log offers more: not judged (a delivery log paged this finely is out of the kit's reach)`,
    );
  // Declared by the deployment, a 404 there is its failure; assumed or read from its routes (how to fill
  // them is the kit's guess), a skip: a 404, or a 400 refusing the value the kit put in (a query filter
  // written `eq.<id>`, PostgREST's way).
  if ((ex.status === 404 || ex.status === 400) && !ctx.declared('webhookDeliveryLogPath'))
    ctx.skip(
      `the delivery log's paths are not shown by the interface and GET ${path} (the kit's reading of ${template}) answered ${ex.status}: declare its path as webhookDeliveryLogPath in the deployment profile (null: it has none)`,
    );
  return ex;
}
