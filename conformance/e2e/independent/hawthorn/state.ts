// The one state both listeners share (the "datasource" of the deployment).
import type { AuditLog } from './audit.ts';
import type { AuthConfig } from './auth.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { Outbox } from './outbox.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { StatusStream } from './stream.ts';

export interface ConnectionEntity {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface WebhookEntity {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  key: string;
  keyId: string;
  status: 'ENABLED' | 'DELETED';
  createdAt: string;
}

export interface State {
  auth: AuthConfig;
  limiter: RateLimiter;
  idempotency: IdempotencyStore;
  stream: StatusStream;
  audit: AuditLog;
  outbox: Outbox;
  connections: ConnectionEntity[];
  webhooks: WebhookEntity[];
  activationMs: number;
  strictQuery: boolean;
  sortCapabilities: boolean;
  keyInHeader: boolean;
  /** How a replayed registration shows the signing key (default marker: "issued exactly once"). */
  replayKey: 'marker' | 'omit' | 'mask' | 'repeat';
  timers: Set<NodeJS.Timeout>;
}

export const WEBHOOK_EVENTS = ['ConnectionCreated', 'ConnectionActivated', 'order.created', 'order.paid'];
