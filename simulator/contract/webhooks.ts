import { z } from 'zod';
import { WEBHOOK_DEFAULTS } from './simulator-defaults.ts';
import { WEBHOOK_EVENTS } from './events.ts';

export const CreateWebhookBody = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .describe('Absolute http(s) address of the receiver, without credentials'),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length).describe('Event names to deliver'),
  })
  .meta({ id: 'CreateWebhookRequest' });
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const WebhookReceiver = z
  .looseObject({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    signatureHeader: z.string().describe('Header carrying t=<unix-seconds>,v1=<hex>'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookReceiver' });

/** The creation answer: the only response that ever shows the signing secret. */
export const CreatedWebhookReceiver = WebhookReceiver.extend({
  signingSecret: z.string().describe('Shown exactly once: store it at once'),
}).meta({ id: 'CreatedWebhookReceiver' });

export const DeliveryAttempt = z.looseObject({
  n: z.int(),
  sequence: z.int(),
  at: z.iso.datetime(),
  status: z.int().optional(),
  durationMs: z.number(),
  error: z.string().optional(),
  signatureHeader: z.string().optional().describe('Name of the signature header this attempt carried'),
  signature: z.string().optional().describe('Its value exactly as sent: t=<unix-seconds>,v1=<hex>'),
});

export const Delivery = z
  .looseObject({
    id: z.string(),
    receiverId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.array(DeliveryAttempt),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    nextAttemptAt: z.iso.datetime().optional(),
    error: z.string().optional(),
  })
  .meta({ id: 'WebhookDelivery' });

export const WebhookParams = z.object({ webhookId: z.string().min(1).max(200) });
export const DeliveryParams = WebhookParams.extend({ deliveryId: z.string().min(1).max(200) });
export const DeliveriesQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(WEBHOOK_DEFAULTS.maxDeliveriesPerReceiver)
    .optional()
    .describe(`Default ${WEBHOOK_DEFAULTS.defaultListLimit}`),
});
export const WebhooksData = z.object({ count: z.int(), webhooks: z.array(WebhookReceiver) });
export const DeliveriesData = z.object({ webhookId: z.string(), count: z.int(), deliveries: z.array(Delivery) });

export const DeletedWebhookReceiver = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'DeletedWebhookReceiver' });
