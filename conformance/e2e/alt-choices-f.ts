import type { AltChoices } from './alt-choices.ts';

/**
 * The sixth alternative: what independent implementations do where the interface is silent and none of
 * ALT_A..ALT_E does. A Python service (microsecond date-times with lower-case `t`/`z`), a PHP one (`\/`
 * in JSON), a Spring one (errors as problem+json with members of their own), resource-name ids with a
 * `/`, the signing key nested in the creation answer and left out of a replay, CloudEvents deliveries
 * stating their attempt and signed by a clock 40 s ahead, `meta.idempotencyKey` on replays only, a
 * stream opening with a byte order mark and writing `data:` without a space, a gateway counting
 * anonymous calls to the public endpoints, an authorization server that throttles and writes its own
 * token answers, a delivery log in snake_case. It keeps the simulator's event names, so a run without a
 * profile reaches its webhooks.
 */
export const ALT_F: AltChoices = {
  name: 'alt-f',
  signatureHeader: 'X-Signature',
  deliveryIdHeader: null,
  deliveryLogPath: '/api/public/v1/webhooks/{webhookId}/events',
  redeliverPath: '/api/public/v1/webhooks/{webhookId}/events/{deliveryId}/redeliver',
  states: { pending: 'PENDING', active: 'ACTIVE', paused: 'PAUSED', revoked: 'REVOKED' },
  events: { 'connection.created': 'connection.created', 'connection.state_changed': 'connection.state_changed' },
  idFormat: 'path',
  missingTenant: 400,
  audit: {
    list: 'events',
    fields: { seq: 'sequence_number', action: 'event_type', target: 'resource_name', at: 'occurred_at' },
    order: 'newest-first',
    paged: false,
  },
  openApiServers: 'origin',
  selfDescribes: 'all-routes',
  serviceVersion: 'optional',
  tokenPath: '/idp/token',
  tokenInSelfDescription: false,
  preAuthBodyCheck: false,
  deliveryLogForEarlier: false,
  wire: {
    prettyReversedKeys: false,
    contentType: 'application/json; charset=utf-8',
    gzipChunkedClose: false,
    timeOffset: null,
    extraFields: false,
    reverseLists: false,
    requestIdHeader: true,
    stream: { crlf: false, heartbeats: false, idOffset: 0, byteOrderMark: true, compactFields: true },
    microseconds: true,
    lowerCaseTimes: true,
    escapeSlashes: true,
    problemErrors: true,
  },
  extras: {
    secretPath: 'credentials.signingKey',
    replayWithoutSecret: true,
    cloudEvents: true,
    attemptInBody: true,
    signerAheadSeconds: 40,
    keyEchoOnReplaysOnly: true,
    publicRateLimit: true,
    tokenQuirks: true,
    snakeDeliveryLog: true,
  },
};
