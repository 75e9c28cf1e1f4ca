import { z } from 'zod';
import { LIMITS } from './limits.ts';

/** Event names of the status stream's feeds and of webhooks (the interface shows only order.created and order.paid). */
export const PUBLIC_EVENTS = ['service.status'] as const;
export const TENANT_EVENTS = [
  'connection.created',
  'connection.state_changed',
  'webhook.created',
  'webhook.delivery_failed',
  'order.created',
  'order.paid',
] as const;
/** What a webhook receiver may subscribe to. */
export const WEBHOOK_EVENTS = [
  'order.created',
  'order.paid',
  'connection.created',
  'connection.state_changed',
] as const;

export const StreamQuery = z.object({
  cursor: z.coerce
    .number()
    .int()
    .min(LIMITS.cursor.min)
    .optional()
    .describe('Last message number read; resumes after it'),
});

export const StreamHeaders = z.object({
  'Last-Event-ID': z.string().optional().describe('Last message number read; resumes after it (same as cursor)'),
});
