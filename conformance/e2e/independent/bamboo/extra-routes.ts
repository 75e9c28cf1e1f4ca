// bamboo's routes beyond the interface's table: the description files per version, GET /info (the sample
// first call), the webhook admin (list, removal) and the delivery log (Svix's messages and attempts,
// resend), the audit checkpoint keys. Published in the OpenAPI document and the self-description alike.
import { auditKeys } from './audit.ts';
import { openapiFile } from './openapi.ts';
import type { DocRoute } from './routes.ts';
import { list, obj, ref, str } from './schemas.ts';
import { info } from './self-description.ts';
import { deleteWebhook, listMessages, listWebhooks, resendMessage } from './webhooks.ts';

const P = '/api/public/v1';
const count = { type: 'integer', minimum: 0 };

export const EXTRA_ROUTES: DocRoute[] = [
  {
    method: 'GET',
    path: `${P}/openapi/{file}`,
    auth: false,
    purpose: 'the description per version as a JSON or YAML file',
    operationId: 'downloadOpenApi',
    run: (c, x) => openapiFile(c, x.params.file ?? ''),
  },
  {
    method: 'GET',
    path: `${P}/info`,
    auth: true,
    purpose: 'who is calling: tenant, client, environment',
    operationId: 'getInfo',
    run: info,
    data: obj(
      {
        service: str(),
        environment: ref('Environment'),
        tenant: str(),
        clientId: str(),
        version: str(),
        tokenExpiresAt: { type: ['string', 'null'], format: 'date-time' },
      },
      ['tenant'],
    ),
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    auth: true,
    purpose: 'webhook receivers of the tenant',
    operationId: 'listWebhooks',
    run: listWebhooks,
    data: obj({ count, webhooks: list(ref('Webhook')) }, ['count', 'webhooks']),
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    auth: true,
    key: true,
    purpose: 'remove a webhook receiver',
    operationId: 'deleteWebhook',
    run: deleteWebhook,
    data: obj({ id: str(), deleted: { type: 'boolean' } }, ['id', 'deleted']),
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/messages`,
    auth: true,
    purpose: 'delivery log: messages and their attempts',
    operationId: 'listWebhookMessages',
    run: listMessages,
    query: [
      { name: 'limit', schema: { type: 'integer', minimum: 1, maximum: 250, default: 50 } },
      { name: 'iterator', schema: str() },
    ],
    data: obj(
      {
        webhookId: str(),
        count,
        messages: list(ref('Message')),
        iterator: { type: ['string', 'null'] },
        done: { type: 'boolean' },
      },
      ['messages', 'done'],
    ),
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/messages/{messageId}/resend`,
    auth: true,
    key: true,
    purpose: 'trigger a logged delivery again',
    operationId: 'resendWebhookMessage',
    run: resendMessage,
    data: obj({ messageId: str(), webhookId: str(), status: str() }, ['messageId', 'status']),
  },
  {
    method: 'GET',
    path: `${P}/audit-log/keys`,
    auth: true,
    purpose: 'public keys of the audit checkpoints (JWK)',
    operationId: 'listAuditKeys',
    run: auditKeys,
    data: obj({ keys: list({ type: 'object' }) }, ['keys']),
  },
];
