import { ROUTE_BY_ID } from '../../../simulator/contract/route-table.ts';
import type { CheckContext } from '../../runner/check.ts';
import { freshKey } from './connections.ts';
import { receiverIdOf } from './one-list.ts';
import { deref, findOperation, type OpenApiLike, openApiExchange } from './openapi.ts';
import { selfDescriptionExchange } from './self-description.ts';
import { removeAtRunEnd } from './webhook-scenario.ts';

// Which event the kit subscribes its receivers to. The interface shows only sample names (order.created,
// order.paid: "The complete list of event names … not shown") and not which event a new connection
// triggers. The deployment profile's webhookTestEvent comes first; without it, the names the deployment
// publishes (the OpenAPI document's events field of POST /webhooks: enum, const, examples; else any list
// of event-name-like strings in the self-description) are read, and the one about a connection being
// created is chosen; when it publishes none, the names a refusal of the simulator's name lists; only when
// none names a connection does the kit guess the simulator's name.

/** The simulator's event for a connection creation: the kit's guess when nothing better is known. */
export const GUESSED_TEST_EVENT = 'connection.created';

export interface TestEvent {
  name: string;
  /** The deployment profile named it: a refusal or a missing delivery is then the deployment's own failure. */
  declared: boolean;
  /** Where the name came from, for notes and skip reasons. */
  source: string;
}

const MAX_DEPTH = 8;
/** One word: an event name has no spaces (`connection.created`, `ConnectionCreated`, `CONNECTION_CREATED`). */
const TOKEN = /^[A-Za-z][\w.:/-]{0,99}$/;
/** Outside a list named for events, only dotted names count (not scopes, versions or flows). */
const DOTTED = /^[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)+$/i;
const EVENTS_PATH = /event|webhook|topic|subscri/i;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** The strings a schema allows or shows: enum, const, examples, example, through items, $refs and combinators. */
function schemaNames(doc: unknown, node: unknown, depth = 0): string[] {
  const { value } = deref(doc, node, []);
  if (depth > MAX_DEPTH) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((v) => schemaNames(doc, v, depth + 1));
  if (!isObject(value)) return [];
  return ['enum', 'const', 'examples', 'example', 'value', 'items', 'anyOf', 'oneOf', 'allOf'].flatMap((k) =>
    k in value ? schemaNames(doc, value[k], depth + 1) : [],
  );
}

/** The schema of a body's `events` field, found through $refs and allOf/anyOf/oneOf. */
function eventsSchema(doc: unknown, schema: unknown, depth = 0): unknown {
  const { value } = deref(doc, schema, []);
  if (!isObject(value) || depth > MAX_DEPTH) return undefined;
  const props = deref(doc, value.properties, []).value;
  if (isObject(props) && props.events !== undefined) return props.events;
  for (const k of ['allOf', 'anyOf', 'oneOf']) {
    const list = value[k];
    if (!Array.isArray(list)) continue;
    for (const part of list) {
      const found = eventsSchema(doc, part, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** `events` of a body example (media type `example`, `examples.*.value`, the schema's `example(s)`). */
function exampleEvents(doc: unknown, examples: unknown[]): string[] {
  return examples.flatMap((e) => {
    const v = deref(doc, e, []).value;
    const body = isObject(v) && 'value' in v ? v.value : v;
    return isObject(body) ? schemaNames(doc, body.events) : [];
  });
}

/**
 * The event names the OpenAPI document lists for POST /webhooks: what its body's `events` field allows or
 * shows, and the events of the body's examples.
 * @example openApiEventNames(doc, '/api/public/v1/webhooks') // ['connection.requested', 'connection.live', …]
 */
export function openApiEventNames(doc: OpenApiLike, path: string): string[] {
  const op = findOperation(doc, 'POST', path);
  const body = deref(doc, op?.requestBody, []).value;
  const content = isObject(body) && isObject(body.content) ? body.content : {};
  const names = Object.values(content).flatMap((media) => {
    if (!isObject(media)) return [];
    const schema = deref(doc, media.schema, []).value;
    const examples = [
      media.example,
      ...(isObject(media.examples) ? Object.values(media.examples) : []),
      ...(isObject(schema) ? [schema.example, ...(Array.isArray(schema.examples) ? schema.examples : [])] : []),
    ];
    return [...schemaNames(doc, eventsSchema(doc, media.schema)), ...exampleEvents(doc, examples)];
  });
  return unique(names.filter((n) => TOKEN.test(n)));
}

/**
 * Lists of event-name-like strings in the self-description's data, those under a name about events or
 * webhooks first (`webhooks.events`), then dotted names anywhere else.
 * @example selfDescribedEventNames({ webhooks: { events: ['connection.requested'] } }) // [['connection.requested'], []]
 */
export function selfDescribedEventNames(data: unknown): [named: string[], elsewhere: string[]] {
  const named: string[] = [];
  const elsewhere: string[] = [];
  const walk = (v: unknown, path: string, depth: number) => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(v)) {
      const strings = v.length > 0 && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
      if (strings && EVENTS_PATH.test(path) && strings.every((s) => TOKEN.test(s))) named.push(...strings);
      else if (strings?.every((s) => DOTTED.test(s))) elsewhere.push(...strings);
      else for (const [i, x] of v.entries()) walk(x, `${path}.${i}`, depth + 1);
    } else if (isObject(v)) for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`, depth + 1);
  };
  walk(data, '', 0);
  return [unique(named), unique(elsewhere)];
}

const unique = (names: string[]) => [...new Set(names)];

/** Words of the first event a new connection triggers, best first: its creation, else its first state. */
const RANKS = [/created|creation/i, /creat/i, /request|add|new|open|submit|init|insert|regist|pending|provision/i, /./];
const CONNECTION = /connection/i;

/**
 * The published name about a connection being created (`connection.created`, `ConnectionCreated`), else
 * about its first state (`connection.requested`), else the first about connections; undefined: none names one.
 * @example creationEvent(['order.paid', 'connection.requested', 'connection.live']) // 'connection.requested'
 */
export function creationEvent(names: readonly string[]): string | undefined {
  const about = names.filter((n) => CONNECTION.test(n));
  for (const rank of RANKS) {
    const found = about.find((n) => rank.test(n.replace(CONNECTION, '')));
    if (found) return found;
  }
  return undefined;
}

const WEBHOOKS_PATH = ROUTE_BY_ID.get('createWebhook')?.path ?? '/api/public/v1/webhooks';

/**
 * The event names a refusal's error names (`events: one of connection.requested, …`): the words of its
 * error object's texts that look like event names, the refused one left out.
 * @example refusalEventNames({ error: { detail: 'events[0]: one of connection.requested, order.paid' } }, 'connection.created') // ['connection.requested', 'order.paid']
 */
export function refusalEventNames(body: unknown, refused: string): string[] {
  const error = isObject(body) ? body.error : undefined;
  const texts: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (typeof v === 'string') texts.push(v);
    else if (v && typeof v === 'object' && depth < 4) for (const x of Object.values(v)) walk(x, depth + 1);
  };
  // Its code (invalid_request) is the interface's, not a name the deployment lists.
  if (isObject(error)) for (const [k, v] of Object.entries(error)) if (k !== 'code') walk(v, 1);
  const words = texts.flatMap((t) => t.split(/[\s,;'"`()[\]{}|<>]+/)).map((w) => w.replace(/[.:]+$/, ''));
  return unique(words.filter((w) => w !== refused && TOKEN.test(w) && /[._]|[a-z][A-Z]/.test(w)));
}

/**
 * Nothing published: one registration with the guess, to an address nothing listens on (removed at the run's
 * end if accepted). Refused 400, the names its error lists are the deployment's (many list the valid ones).
 */
async function guessOrRefusal(ctx: CheckContext): Promise<TestEvent> {
  const guess = { name: GUESSED_TEST_EVENT, declared: false };
  const url = `http://127.0.0.1:9/${ctx.label('event-probe')}`;
  const ex = await ctx.call('POST', WEBHOOKS_PATH, {
    json: { url, events: [GUESSED_TEST_EVENT] },
    headers: { 'Idempotency-Key': freshKey(ctx) },
  });
  if (ex.status >= 200 && ex.status < 300) {
    const id = receiverIdOf((ex.json as { data?: unknown } | undefined)?.data, url);
    if (id) removeAtRunEnd(ctx, id);
    return { ...guess, source: "the kit's guess (the deployment publishes no event names and accepted it)" };
  }
  const listed = ex.status === 400 ? refusalEventNames(ex.json, GUESSED_TEST_EVENT) : [];
  const name = creationEvent(listed);
  if (name)
    return {
      name,
      declared: false,
      source: `the deployment's refusal of ${GUESSED_TEST_EVENT} (400), which lists ${listed.slice(0, 8).join(', ')}`,
    };
  return {
    ...guess,
    source: `the kit's guess: the deployment publishes no event names (it answered ${ex.status} to it)`,
  };
}

/**
 * The event the kit subscribes to (once per run): declared, published by the deployment, or guessed.
 * @example (await testEvent(ctx)).name // 'connection.requested'
 */
export function testEvent(ctx: CheckContext): Promise<TestEvent> {
  const declared = ctx.deployment.webhookTestEvent;
  if (declared)
    return Promise.resolve({ name: declared, declared: true, source: 'the deployment profile (webhookTestEvent)' });
  return ctx.shared('webhook-test-event', async () => {
    // Declared without webhookTestEvent, the profile's list of names is the deployment's own word.
    const profiled = ctx.declared('webhookEventNames') ? [...ctx.deployment.webhookEventNames] : [];
    const doc = await openApiExchange(ctx);
    const fromDoc =
      doc.status === 200 && isObject(doc.json) ? openApiEventNames(doc.json as OpenApiLike, WEBHOOKS_PATH) : [];
    const self = await selfDescriptionExchange(ctx);
    const [named, elsewhere] =
      self.status === 200 ? selfDescribedEventNames((self.json as { data?: unknown } | undefined)?.data) : [[], []];
    const lists: [string, string[]][] = [
      ['the deployment profile (webhookEventNames)', profiled],
      [`the OpenAPI document (POST ${WEBHOOKS_PATH}, the events field)`, fromDoc],
      ['the self-description (a list of event names)', named],
      ['the self-description (a list of dotted names)', elsewhere],
    ];
    for (const [where, names] of lists) {
      const name = creationEvent(names);
      if (name)
        return {
          name,
          declared: false,
          source: `${where}: one of ${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''}`,
        };
    }
    const published = unique([...fromDoc, ...named]);
    if (published.length)
      return {
        name: GUESSED_TEST_EVENT,
        declared: false,
        source: `the kit's guess: none of the names the deployment publishes (${published.slice(0, 8).join(', ')}) is about connections`,
      };
    return guessOrRefusal(ctx);
  });
}

/**
 * A second event name the deployment itself publishes (profile webhookEventNames, the OpenAPI document's
 * events field, a list named for events in the self-description), about something other than connections
 * (so a creation triggers no delivery of it), for registering a receiver with a list of two events: a
 * registration that keeps only one of its list then misses the test event, listed second. Undefined when
 * the deployment publishes no such name (the kit invents none: an unknown name may be refused).
 * @example await companionEvent(ctx, 'connection.created') // 'order.paid'
 */
export function companionEvent(ctx: CheckContext, testName: string): Promise<string | undefined> {
  return ctx.shared('webhook-companion-event', async () => {
    const profiled = ctx.declared('webhookEventNames') ? [...ctx.deployment.webhookEventNames] : [];
    const fromDoc = await documentedEventNames(ctx);
    const self = await selfDescriptionExchange(ctx);
    const [named] =
      self.status === 200 ? selfDescribedEventNames((self.json as { data?: unknown } | undefined)?.data) : [[]];
    const names = unique([...profiled, ...fromDoc, ...named]);
    return names.find((n) => n !== testName && !CONNECTION.test(n) && !SEVERAL.test(n));
  });
}

/** A name that stands for several (`*`, `all`): not one event to register alone. */
const SEVERAL = /\*|all/i;

/** The names the OpenAPI document gives POST /webhooks' events (none where it does not answer). */
async function documentedEventNames(ctx: CheckContext): Promise<string[]> {
  const doc = await openApiExchange(ctx);
  return doc.status === 200 && isObject(doc.json) ? openApiEventNames(doc.json as OpenApiLike, WEBHOOKS_PATH) : [];
}

/**
 * The event names the deployment publishes for registrations: the profile's webhookEventNames and the OpenAPI
 * document's events field of POST /webhooks (a self-description's lists may be its stream's message kinds, not
 * names a receiver subscribes to); names that stand for several left out. Empty when it publishes none there.
 * @example await registrableEventNames(ctx) // ['order.created', 'order.paid', 'connection.created']
 */
export function registrableEventNames(ctx: CheckContext): Promise<string[]> {
  return ctx.shared('webhook-registrable-events', async () => {
    const profiled = ctx.declared('webhookEventNames') ? [...ctx.deployment.webhookEventNames] : [];
    return unique([...profiled, ...(await documentedEventNames(ctx))]).filter((n) => !SEVERAL.test(n));
  });
}

/** Where a guess of the kit's did not hold: a skip that says where the name came from and how to declare it. */
export async function skipUnlessDeclared(ctx: CheckContext, what: string): Promise<void> {
  const event = await testEvent(ctx);
  if (!event.declared)
    ctx.skip(
      `${what} for the event ${event.name} (from ${event.source}); the interface does not show which event a change triggers: name it as webhookTestEvent in the deployment profile`,
    );
}
