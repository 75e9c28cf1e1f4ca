// Feed names and message encoding of the status stream. The messages are kept by the feed repository
// (state/feed-store.ts) and numbered, retained and published by the feed service (services/feed-service.ts).
import type { FeedMessage } from '../state/ports/feeds.ts';

export type { FeedMessage };
export type {
  AfterResult,
  FeedListener,
  FeedService,
  FeedSubscriber,
  StreamReset,
} from '../services/feed-service.ts';

/** The feed anyone may read without credentials: service status messages, never tenant data. */
export const PUBLIC_FEED = 'public';

/** A tenant's own feed key. @example tenantFeed('harbour-kitchens') // 'tenant:harbour-kitchens' */
export function tenantFeed(tenant: string): `tenant:${string}` {
  // One string per tenant, not per call: every open stream keeps its feed's name.
  let key = FEED_KEYS.get(tenant);
  if (key === undefined) {
    key = `tenant:${tenant}` as const;
    // Tenants are the fixtures' few (a request naming an unknown tenant is refused before any feed is
    // named); the bound keeps a long run with many generated tenants from growing this without end.
    if (FEED_KEYS.size >= MAX_FEED_KEYS) FEED_KEYS.clear();
    FEED_KEYS.set(tenant, key);
  }
  return key;
}
const FEED_KEYS = new Map<string, `tenant:${string}`>();
const MAX_FEED_KEYS = 10_000;

// The JSON of each message's data, made when a reader (a stream, persistence) first needs it and
// then shared: a message nobody reads is never serialised.
const dataJson = new WeakMap<FeedMessage, string>();

/** The data of a published message as JSON text (computed once per message, on first use). */
export function messageDataJson(m: FeedMessage): string {
  let json = dataJson.get(m);
  if (json === undefined) {
    json = JSON.stringify(m.data);
    dataJson.set(m, json);
  }
  return json;
}
