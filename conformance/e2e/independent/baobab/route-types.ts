// The shape of one route (what the dispatcher needs to authenticate, validate, apply idempotency and call it)
// and the request bodies the interface lists, as validation schemas (also the OpenAPI request bodies).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from './auth.ts';
import type { CallContext } from './http-util.ts';
import type { State } from './state.ts';
import type { Schema } from './validate.ts';
import { EVENT_NAMES } from './webhooks.ts';

export interface Call {
  state: State;
  req: IncomingMessage;
  res: ServerResponse;
  ctx: CallContext;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  caller: Caller;
  origin: string;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  /** Idempotency-Key: required (428 without), optional (honoured when sent), or not read. */
  key?: 'required' | 'optional';
  schema?: Schema;
  /** The first version that serves the route (older Service-Version values get 404). */
  since?: string;
  /** Answers the response itself (the event stream). */
  raw?: boolean;
  /** Part of the interface's own table (else a baobab addition). */
  contract: boolean;
  handle(call: Call): unknown;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;

const text = (min: number, max: number) => ({ type: 'string' as const, min, max, required: true });

export const SCHEMAS: Record<string, Schema> = {
  capabilityCheck: {
    connectorId: text(2, 120),
    capability: text(2, 120),
    environment: { type: 'enum', values: ENVIRONMENTS, required: false },
  },
  connectionCreate: {
    connectorId: text(2, 120),
    environment: { type: 'enum', values: ENVIRONMENTS, required: true },
    scopeLabel: text(2, 120),
    capabilities: { type: 'array', min: 1, max: 24, items: { type: 'string', min: 2, max: 120 }, required: true },
  },
  keyCreate: { operation: text(2, 80) },
  webhookCreate: {
    url: text(8, 2048),
    events: {
      type: 'array',
      min: 1,
      max: EVENT_NAMES.length,
      items: { type: 'enum', values: EVENT_NAMES },
      required: true,
    },
  },
};
