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
  return `tenant:${tenant}`;
}

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
