// The shapes and constants of webhooks: receivers, delivery attempts (the delivery log), the event
// names we deliver and the signature rule of the interface (t=<unix seconds>,v1=<hex HMAC-SHA256>).
import { createHmac } from 'node:crypto';

export const EVENT_TYPES = ['connection.created', 'connection.provisioned', 'order.created', 'order.paid'] as const;
export const SIGNATURE_HEADER = 'spruce-signature';

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  status: string;
  createdAt: string;
}
export interface Attempt {
  id: string;
  webhookId: string;
  /** The queue message: one event, or a CloudEvents batch of several. */
  messageId: string;
  eventIds: string[];
  eventTypes: string[];
  deliveryCount: number;
  trigger: string;
  status: string;
  responseStatus: number | null;
  error: string | null;
  createdAt: string;
  completedAt: string | null;
}

export interface WebhookService {
  register(tenant: string, url: string, events: string[]): { webhook: Webhook; signingKey: string };
  get(tenant: string, id: string): Webhook | undefined;
  list(tenant: string): Webhook[];
  remove(tenant: string, id: string): boolean;
  emit(tenant: string, eventType: string, data: Record<string, unknown>): void;
  attempts(tenant: string, webhookId: string): Attempt[] | undefined;
  redeliver(tenant: string, webhookId: string, attemptId: string): Attempt | undefined;
  close(): void;
}

export function signatureValue(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}
