import type { BehaviourChoices } from './alt-behaviour.ts';
import { ALT_F } from './alt-choices-f.ts';
import { ALT_G } from './alt-choices-g.ts';
import type { ExtraChoices } from './alt-extras.ts';
import type { FurtherChoices } from './alt-further.ts';
import type { WireChoices } from './alt-wire.ts';

/**
 * Legal choices where the interface is silent, as data: each alternative target of the self-test is
 * one of these, and one more legal variant is one more line (`{ ...ALT_B, serviceVersion: 'required' }`).
 * Every field is a point the interface leaves open; the kit must pass each variant with and without a
 * profile declaring it.
 */
export interface AltChoices {
  name: string;
  /** Header carrying t=…,v1=… on deliveries (the interface does not name it). */
  signatureHeader: string;
  /** Header naming a delivery's id in the delivery log, or none at all. */
  deliveryIdHeader: string | null;
  /** Delivery log and redelivery paths (not shown). */
  deliveryLogPath: string;
  redeliverPath: string;
  /** The simulator's state names and this deployment's (not shown). */
  states: Record<string, string>;
  /** This deployment's event names, and the simulator's they stand for (not shown). */
  events: Record<string, string>;
  /** Format of connection ids (not shown). */
  idFormat: 'uuid' | 'counter' | 'path' | 'ulid';
  /** A call with a token but no tenant: 401 (signed in for none) or the simulator's 400. */
  missingTenant: 401 | 400;
  /** Audit log (fields, order and paging not shown): its list's name and fields, newest or oldest first, paged by a next link. */
  audit: {
    list: string;
    fields: { seq: string; action: string; target: string; at: string };
    order: 'newest-first' | 'oldest-first';
    paged: boolean;
    /** How a page names the next: a `next` path (the default) or an opaque `nextCursor` sent back as `cursor`. */
    next?: 'path' | 'cursor';
    /** The most entries a page holds, whatever `limit` asks (not shown). */
    maxLimit?: number;
  };
  /** OpenAPI servers: at the origin with full paths (the simulator's), or the base path with relative paths. */
  openApiServers: 'origin' | 'relative-base' | 'absolute-both';
  /** Self-description routes: all the deployment offers, or only the interface's (a subset of the document). */
  selfDescribes: 'all-routes' | 'interface-routes';
  /** Service-Version optional, or mandatory on every interface call (400 without it): not shown. */
  serviceVersion: 'optional' | 'required';
  /** Token endpoint path; null: the simulator's /oauth/token. The self-description names it or not (then only RFC 8414 metadata tells). */
  tokenPath: string | null;
  tokenInSelfDescription: boolean;
  /** Malformed JSON bodies refused with 400 before authentication, without rate-limit headers. */
  preAuthBodyCheck: boolean;
  /** The delivery log is also served to callers asking for 2026-06-12 (an additive change). */
  deliveryLogForEarlier: boolean;
  /** Further points (absent: the simulator's choice). A gateway path before /api/public/v1 (the base URL then ends in it). */
  basePrefix?: string;
  /** Field of the webhook creation answer holding the signing key (response fields: not shown). */
  secretField?: string;
  /** Deliveries leave this long after the change (the retry policy and timing are not shown). */
  webhookDelayMs?: number;
  /** An unknown connector on POST /capabilities: 404 not_found (the simulator's) or a decision "not allowed". */
  unknownConnector?: 'not-found' | 'not-allowed';
  /** An unknown Service-Version: served as the current version (the simulator's) or refused with 400 (not shown). */
  unknownServiceVersion?: 'serve' | 'refuse';
  /** GET /info (a sample first call, response not shown): offered, or absent (404 and not described). */
  infoRoute?: boolean;
  /** A stream opened without Last-Event-ID or cursor starts at the oldest retained message (the simulator: new ones only). */
  streamFromStart?: boolean;
  /** Seconds an issued idempotency key stays valid (expiresAt; not shown). */
  keyValiditySeconds?: number;
  /** How answers are written and sent (alt-wire.ts); absent: as the simulator does. */
  wire?: WireChoices;
  /** Refusal order, strictness, keys of refused calls, replays, error texts, extra headers, deliveries (alt-behaviour.ts). */
  behaviour?: BehaviourChoices;
  /** Signing key's place, delivery format and clock, key echo, public rate-limit pool, token answers, delivery-log shape (alt-extras.ts). */
  extras?: ExtraChoices;
  /** Token client authentication, stream text and chunks, nested registration, plain-text deliveries, weighted rate limits, replay time, audit shape, sorted lists, a composed OpenAPI document (alt-further.ts). */
  further?: FurtherChoices;
}

/** The first alternative: UUIDs, other state and event names, another signature header, a reshaped audit log. */
export const ALT_A: AltChoices = {
  name: 'alt-a',
  signatureHeader: 'X-Alt-Signature',
  deliveryIdHeader: 'X-Alt-Delivery-Id',
  deliveryLogPath: '/api/public/v1/webhooks/{webhookId}/attempts',
  redeliverPath: '/api/public/v1/webhooks/{webhookId}/attempts/{deliveryId}/retry',
  states: { pending: 'provisioning', active: 'live', paused: 'suspended', revoked: 'closed' },
  events: { 'venue.link.created': 'connection.created', 'venue.link.changed': 'connection.state_changed' },
  idFormat: 'uuid',
  missingTenant: 401,
  audit: {
    list: 'items',
    fields: { seq: 'sequence', action: 'what', target: 'object', at: 'when' },
    order: 'newest-first',
    paged: false,
  },
  openApiServers: 'origin',
  selfDescribes: 'all-routes',
  serviceVersion: 'optional',
  tokenPath: null,
  tokenInSelfDescription: true,
  preAuthBodyCheck: false,
  deliveryLogForEarlier: false,
};

/** The second: differs from the first and from the simulator on every point above. */
export const ALT_B: AltChoices = {
  name: 'alt-b',
  signatureHeader: 'Webhook-Signature',
  deliveryIdHeader: null,
  deliveryLogPath: '/api/public/v1/webhooks/{webhookId}/delivery-log',
  redeliverPath: '/api/public/v1/webhooks/{webhookId}/delivery-log/{deliveryId}/replay',
  states: { pending: 'requested', active: 'enabled', paused: 'on-hold', revoked: 'ended' },
  events: { 'link.opened': 'connection.created', 'link.updated': 'connection.state_changed' },
  idFormat: 'counter',
  missingTenant: 400,
  audit: {
    list: 'log',
    fields: { seq: 'n', action: 'op', target: 'ref', at: 'ts' },
    order: 'oldest-first',
    paged: true,
  },
  openApiServers: 'relative-base',
  selfDescribes: 'interface-routes',
  serviceVersion: 'required',
  tokenPath: '/auth/v2/token',
  tokenInSelfDescription: false,
  preAuthBodyCheck: true,
  deliveryLogForEarlier: true,
};

/**
 * The third: a deployment behind a gateway path, with its own wire habits (gzip, chunks, indented JSON
 * in reverse key order, +02:00 times, extra fields, reversed lists, CRLF streams numbered from 1000),
 * a secret field, delivery delay, decision for unknown connectors and refusal of unknown versions of its own.
 */
export const ALT_C: AltChoices = {
  name: 'alt-c',
  signatureHeader: 'Signature',
  deliveryIdHeader: 'X-Event-Delivery',
  deliveryLogPath: '/api/public/v1/webhooks/{webhookId}/log',
  redeliverPath: '/api/public/v1/webhooks/{webhookId}/log/{deliveryId}/resend',
  states: { pending: 'new', active: 'ready', paused: 'halted', revoked: 'gone' },
  events: { 'connection.opened': 'connection.created', 'connection.moved': 'connection.state_changed' },
  idFormat: 'uuid',
  missingTenant: 401,
  audit: {
    list: 'records',
    fields: { seq: 'position', action: 'type', target: 'subject', at: 'recordedAt' },
    order: 'newest-first',
    paged: true,
  },
  openApiServers: 'origin',
  selfDescribes: 'all-routes',
  serviceVersion: 'optional',
  tokenPath: '/connect/token',
  tokenInSelfDescription: true,
  preAuthBodyCheck: false,
  deliveryLogForEarlier: false,
  basePrefix: '/gw/ncs',
  secretField: 'secret',
  webhookDelayMs: 1500,
  unknownConnector: 'not-allowed',
  unknownServiceVersion: 'refuse',
  infoRoute: false,
  wire: {
    prettyReversedKeys: true,
    contentType: 'application/json;charset=UTF-8',
    gzipChunkedClose: true,
    timeOffset: '+02:00',
    extraFields: true,
    reverseLists: true,
    requestIdHeader: false,
    stream: { crlf: true, heartbeats: true, idOffset: 1000 },
  },
};

/**
 * The fourth: ALT_B's choices with other behaviour where the interface fixes none (refusal order,
 * strict unknown fields, keys bound to refusals, replays repeating the original meta, own error texts,
 * extra headers, every delivery sent twice).
 */
export const ALT_D: AltChoices = {
  ...ALT_B,
  name: 'alt-d',
  serviceVersion: 'optional',
  behaviour: {
    bodyBeforeKey: true,
    strictUnknown: true,
    refusalsKeepKey: true,
    replayOriginalMeta: true,
    ownErrorTexts: true,
    extraHeaders: true,
    duplicateDeliveries: true,
  },
};

/**
 * The fifth: points none of the others varies. A stream without a resume point replays the retained
 * backlog; messages without `event:` lines, their JSON over several `data:` lines; JSON with \u escapes
 * for every non-ASCII character and date-times in whole seconds; an audit log paged by an opaque
 * `nextCursor`, at most 5 entries a page; OpenAPI `servers` naming both base URLs absolutely with
 * relative paths; keys valid for 10 minutes; its own names, ids and headers.
 */
export const ALT_E: AltChoices = {
  name: 'alt-e',
  signatureHeader: 'X-Hook-Signature',
  deliveryIdHeader: 'X-Hook-Delivery',
  deliveryLogPath: '/api/public/v1/webhooks/{webhookId}/history',
  redeliverPath: '/api/public/v1/webhooks/{webhookId}/history/{deliveryId}',
  states: { pending: 'waiting', active: 'on', paused: 'off', revoked: 'removed' },
  events: { 'binding.added': 'connection.created', 'binding.state': 'connection.state_changed' },
  idFormat: 'counter',
  missingTenant: 401,
  audit: {
    list: 'changes',
    fields: { seq: 'no', action: 'kind', target: 'about', at: 'time' },
    order: 'newest-first',
    paged: true,
    next: 'cursor',
    maxLimit: 5,
  },
  openApiServers: 'absolute-both',
  selfDescribes: 'all-routes',
  serviceVersion: 'optional',
  tokenPath: '/oauth2/v1/token',
  tokenInSelfDescription: false,
  preAuthBodyCheck: false,
  deliveryLogForEarlier: false,
  streamFromStart: true,
  keyValiditySeconds: 600,
  wire: {
    prettyReversedKeys: false,
    contentType: 'application/json',
    gzipChunkedClose: false,
    timeOffset: null,
    extraFields: false,
    reverseLists: false,
    requestIdHeader: true,
    stream: { crlf: false, heartbeats: false, idOffset: 0, multilineData: true, noEventField: true },
    asciiEscapes: true,
    wholeSeconds: true,
  },
};

/** Every alternative target the self-test runs the kit against (add a line for another legal variant). */
export const ALT_VARIANTS: readonly AltChoices[] = [
  ALT_A,
  ALT_B,
  { ...ALT_A, name: 'alt-a, Service-Version mandatory', serviceVersion: 'required' },
  ALT_C,
  ALT_D,
  ALT_E,
  ALT_F,
  ALT_G,
];

/** What a deployment profile would declare for a variant (so the kit judges instead of skipping). */
export function declaredProfile(c: AltChoices) {
  return {
    webhookSignatureHeader: c.signatureHeader,
    webhookTestEvent: Object.keys(c.events)[0]!,
    webhookReceiverUrl: 'loopback' as const,
    webhookDeliveryLogPath: c.deliveryLogPath,
    webhookRedeliverPath: c.redeliverPath,
    webhookDeliveryIdHeader: c.deliveryIdHeader,
    ...(c.secretField ? { webhookSecretField: c.secretField } : {}),
    ...(c.extras?.secretPath ? { webhookSecretField: c.extras.secretPath } : {}),
    ...(c.further?.nestedRegistration ? { webhookSecretField: 'webhook.secret' } : {}),
  };
}
