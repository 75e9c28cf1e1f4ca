import type { AltChoices } from './alt-choices.ts';

/**
 * The seventh alternative: legal choices none of the simulator and ALT_A..ALT_F makes (`further`,
 * alt-further.ts). An authorization server that takes client_secret_post only and says so in its RFC 8414
 * metadata; stream messages whose data is a line of plain text, sent with `id:` after `data:` and in
 * pieces cut inside a UTF-8 character and between CR and LF; a webhook registration answer nesting the
 * receiver (`data.webhook.id`, `data.receiver.url`) and a delivery log nesting its list (`data.page.items`); deliveries sent as text/plain with a User-Agent;
 * rate limits weighted per call and counted per base URL; a replay repeating the original meta.at and a
 * conflict naming the stored request; an audit log with nested actor and target, epoch times and a
 * signature as proof; lists sorted by name; an OpenAPI document composed with $ref, allOf, nullable types
 * and a templated server; ULIDs. It keeps the simulator's event names, so a run without a profile reaches
 * its webhooks (and must find the receiver's id in the nested answer by itself).
 */
export const ALT_G: AltChoices = {
  name: 'alt-g',
  signatureHeader: 'Hook-Signature',
  deliveryIdHeader: 'Hook-Delivery-Id',
  deliveryLogPath: '/api/public/v1/webhook-deliveries/{webhookId}',
  redeliverPath: '/api/public/v1/webhook-deliveries/{webhookId}/{deliveryId}/retry',
  states: { pending: 'awaiting_activation', active: 'in_service', paused: 'held', revoked: 'terminated' },
  events: { 'connection.created': 'connection.created', 'connection.state_changed': 'connection.state_changed' },
  idFormat: 'ulid',
  missingTenant: 400,
  // Unused: `further.auditSignedEpoch` writes the audit log (newest first, one page, as the simulator orders it).
  audit: {
    list: 'trail',
    fields: { seq: 'sequence', action: 'action', target: 'target', at: 'at' },
    order: 'newest-first',
    paged: false,
  },
  openApiServers: 'origin',
  selfDescribes: 'all-routes',
  serviceVersion: 'optional',
  tokenPath: '/as/token.oauth2',
  tokenInSelfDescription: false,
  preAuthBodyCheck: false,
  deliveryLogForEarlier: false,
  further: {
    tokenAuthPostOnly: true,
    streamTextData: true,
    streamAwkwardChunks: true,
    nestedRegistration: true,
    nestedDeliveryLog: true,
    plainTextDeliveries: true,
    weightedRateLimit: true,
    replayOriginalAt: true,
    auditSignedEpoch: true,
    listsSorted: true,
    openApiComposed: true,
  },
};
