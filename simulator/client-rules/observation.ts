import type { AccessToken } from '../core/context.ts';
import { must } from '../lib/invariant.ts';
import { RingBuffer } from '../lib/ring-buffer.ts';
import type { KeptVerdicts } from './kept-verdicts.ts';

/** One call as the client rules see it: a small flat record, no copy of headers or body. */
export interface CallRecord {
  /** Order of arrival across the whole sandbox. */
  seq: number;
  requestId: string;
  /**
   * Sandbox-clock ms at arrival and when the answer left (0 while pending): real time, plus whatever the
   * control plane advanced (time that passed for tokens and keys passed for the client too).
   */
  at: number;
  answeredAt: number;
  method: string;
  path: string;
  /** Idempotency-Key header as sent. */
  key: string | undefined;
  /**
   * FNV-1a of what the call asks for: the query and the body's content (its canonical JSON, so a body
   * serialised anew with other key order or spacing is the same content, as for the service's
   * idempotency check; the raw bytes when it is no JSON). 0 for neither: equal content, equal hash.
   */
  bodyHash: number;
  /** The route requires an Idempotency-Key (a modifying call in the contract's route table). */
  modifying: boolean;
  /** 0 for a dropped connection (no answer at all). */
  status: number;
  /** The runtime tells when a client gives up on a call (its connection closes before the answer). */
  watched: boolean;
  /** When the client gave up on the call before its answer was complete (0: it did not, or unknown). */
  goneAt: number;
  /** Number of the connection the call opened (it was that connection's first call); 0 otherwise or unknown. */
  connection: number;
  /** Connections the server had accepted when the answer left (0: unknown). */
  connectionsAtAnswer: number;
  /**
   * How long the connection the call opened lay idle between its acceptance and this first call (ms; 0:
   * unknown or not its first call). A client sending calls at once writes each right after connecting; a
   * pool that connects ahead of need sends its first call on that connection much later.
   */
  connectionIdleMs: number;
  /** Error code of a failure the pipeline threw (e.g. idempotency_conflict). */
  code: string | undefined;
  /** Retry-After of the answer, in ms. */
  retryAfterMs: number | undefined;
  /** Service-Version header as sent. */
  version: string | undefined;
  /** Content-Type and Content-Encoding as sent (how the body is to be read): a fix there after a 400 is a new call. */
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /** The token record behind the call (same object for the same token). */
  token: AccessToken | undefined;
}

/** One status-stream connection: what the client asked for and the numbered messages it was sent. */
export interface StreamRecord {
  requestId: string;
  at: number;
  /** 0 while open. */
  endedAt: number;
  /** Last-Event-ID or ?cursor as sent; undefined without. */
  cursor: number | undefined;
  firstId: number | undefined;
  lastId: number | undefined;
  /** When the last numbered message was sent (0 before the first). */
  lastAt: number;
  /** The stream began with a stream.reset (cursor older than retention or ahead). */
  reset: boolean;
  /**
   * First number of the stream's last burst: the messages sent with no pause longer than BURST_GAP_MS
   * between them, up to lastId (undefined before the first).
   */
  burstFirstId: number | undefined;
  /** The client closed the connection (the server had not ended the stream). */
  closedByClient: boolean;
  /** The bearer token the stream was opened with (streams are public: often none). */
  token?: AccessToken;
}

/**
 * Messages sent this close together form one burst. A client that closes its stream while a burst
 * arrives may not have read all of it (the rest was in its socket buffer, or past its batch size).
 */
export const BURST_GAP_MS = 1_000;

/** A call that carried credentials from a browser context. */
export interface BrowserRecord {
  requestId: string;
  at: number;
  kind: 'origin-with-credentials' | 'fetch-metadata-with-credentials' | 'preflight-for-credentials';
  origin: string;
  tenant: string;
  client: string;
}

/** Everything observed for one client (the access's client id) and tenant. */
export interface ClientBucket {
  client: string;
  tenant: string;
  calls: RingBuffer<CallRecord>;
  streams: RingBuffer<StreamRecord>;
  /**
   * The latest end among stream records the bucket no longer keeps (0: none dropped; Infinity: one was
   * still open when dropped). A reconnect after it may resume a stream the rules can no longer see.
   */
  streamsDroppedEnd: number;
  /** Violations among calls the ring dropped, and dropped calls still to be judged (kept-verdicts.ts). */
  kept?: KeptVerdicts;
  lastSeen: number;
}

export interface ObservationLimits {
  /** Client-tenant pairs kept; the least recently seen is dropped beyond it (default 256). */
  maxBuckets: number;
  /** Calls kept per pair, newest (default 200). */
  callsPerBucket: number;
  /** Stream connections kept per pair (default 32). */
  streamsPerBucket: number;
  /** Browser-context calls kept in all (default 64). */
  browserRecords: number;
  /** Calls given up on while still held by the service, kept until answered (default 256). */
  heldGiveUps: number;
}

export const DEFAULT_OBSERVATION_LIMITS: ObservationLimits = {
  maxBuckets: 256,
  callsPerBucket: 200,
  streamsPerBucket: 32,
  browserRecords: 64,
  heldGiveUps: 256,
};

/**
 * What the sandbox remembers of its clients, bounded: at most maxBuckets x (callsPerBucket call records
 * of about 215 bytes + streamsPerBucket stream records) plus browserRecords, about 12 MB with the defaults
 * and usually far less. Buckets are kept in a two-level map (client, then tenant) so a call costs two
 * map reads and no string building.
 * @example const obs = createObservations(); const b = obs.bucket('partner-app', 'harbour-kitchens'); b.calls.push(rec);
 */
export function createObservations(limits: Partial<ObservationLimits> = {}) {
  const lim = { ...DEFAULT_OBSERVATION_LIMITS, ...limits };
  const byClient = new Map<string, Map<string, ClientBucket>>();
  const browser = new RingBuffer<BrowserRecord>(lim.browserRecords);
  let buckets = 0;
  let seq = 0;
  let since = Date.now();

  const evictOldest = () => {
    let oldest: ClientBucket | undefined;
    for (const tenants of byClient.values())
      for (const b of tenants.values()) if (!oldest || b.lastSeen < oldest.lastSeen) oldest = b;
    if (!oldest) return;
    const tenants = must(byClient.get(oldest.client), 'the oldest bucket was found under its client');
    tenants.delete(oldest.tenant);
    if (tenants.size === 0) byClient.delete(oldest.client);
    buckets--;
  };

  // Calls the client gave up on while the service still holds them, by request id (oldest dropped first).
  const held = new Map<string, { client: string; tenant: string; record: CallRecord }>();

  return {
    limits: lim,
    nextSeq: () => ++seq,
    /** A call its client gave up on, still unanswered: seen by reports until its answer is recorded. */
    holdGiveUp(client: string, tenant: string, record: CallRecord): void {
      if (held.size >= lim.heldGiveUps) held.delete(held.keys().next().value as string);
      held.set(record.requestId, { client, tenant, record });
    },
    /** The call was answered (its record is written now) or ended otherwise. */
    released(requestId: string): void {
      held.delete(requestId);
    },
    /** The given-up calls still held for one client and tenant. */
    heldGiveUps(client: string, tenant: string): CallRecord[] {
      const out: CallRecord[] = [];
      for (const h of held.values()) if (h.client === client && h.tenant === tenant) out.push(h.record);
      return out;
    },
    /** The bucket of a client and tenant, made on first use (dropping the least recently seen beyond the bound). */
    bucket(client: string, tenant: string): ClientBucket {
      let tenants = byClient.get(client);
      let b = tenants?.get(tenant);
      if (!b) {
        if (buckets >= lim.maxBuckets) evictOldest();
        if (!tenants || !byClient.has(client)) {
          tenants = new Map();
          byClient.set(client, tenants);
        }
        b = {
          client,
          tenant,
          calls: new RingBuffer(lim.callsPerBucket),
          streams: new RingBuffer(lim.streamsPerBucket),
          streamsDroppedEnd: 0,
          lastSeen: 0,
        };
        tenants.set(tenant, b);
        buckets++;
      }
      return b;
    },
    browser,
    /** Every bucket, optionally only one client's or one tenant's. */
    buckets(filter: { client?: string; tenant?: string } = {}): ClientBucket[] {
      const out: ClientBucket[] = [];
      for (const [client, tenants] of byClient) {
        if (filter.client && filter.client !== client) continue;
        for (const b of tenants.values()) if (!filter.tenant || filter.tenant === b.tenant) out.push(b);
      }
      return out;
    },
    since: () => since,
    clear() {
      byClient.clear();
      browser.clear();
      held.clear();
      buckets = 0;
      since = Date.now();
    },
  };
}
export type Observations = ReturnType<typeof createObservations>;

/**
 * FNV-1a (32 bit) of a body: content equality for retry recognition without keeping bodies.
 * @example bodyHash(new TextEncoder().encode('{}')) !== 0
 */
export function bodyHash(body: Uint8Array | undefined): number {
  if (!body || body.length === 0) return 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < body.length; i++) {
    h ^= must(body[i], 'a byte index lies inside the body');
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0 || 1;
}

/**
 * FNV-1a (32 bit) of a text, continuing from `seed` (the hash of what came before, 0 for nothing).
 * @example textHash('{"a":1}') === textHash('{"a":1}')
 */
export function textHash(text: string, seed = 0): number {
  if (text.length === 0) return seed;
  let h = seed || 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0 || 1;
}
