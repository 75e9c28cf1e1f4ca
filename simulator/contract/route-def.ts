import type { z } from 'zod';
import type { ErrorCode } from './errors.ts';
import type { Scope } from './scopes.ts';
import type { ApiVersion } from './versions.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One row of the route table: the single description from which the OpenAPI document, the
 * self-description `routes`, routing, validation, auth and idempotency requirements are derived.
 */
export interface RouteDef {
  /** operationId; also the handler name. */
  id: string;
  method: HttpMethod;
  /** Full path, OpenAPI style parameters: /api/public/v1/webhooks/{webhookId}. */
  path: string;
  purpose: string;
  tags: string[];
  /** Needs bearer token + x-service-tenant. */
  auth: boolean;
  /** Scope the token must carry (auth routes only). */
  scope?: Scope;
  /** Needs an Idempotency-Key header (modifying calls). */
  idempotent?: boolean;
  /** Accepts an optional bearer token (e.g. the stream: public feed without, tenant feed with). */
  optionalAuth?: boolean;
  query?: z.ZodObject;
  params?: z.ZodObject;
  /** Request headers of this route beyond auth, tenant, idempotency and version (e.g. Last-Event-ID). */
  headers?: z.ZodObject;
  body?: z.ZodType;
  /**
   * The interface does not show this answer's fields ("Response fields: not shown"): data is the
   * simulator's choice, so the conformance kit judges the envelope only.
   */
  fieldsNotShown?: boolean;
  /**
   * Of a sample-call route's query parameters ("Query: limit (number of entries) ... further parameters: not
   * shown"), the ones the interface names; the rest are the simulator's.
   */
  shownQuery?: readonly string[];
  /** Payload inside the success envelope (JSON routes). */
  data?: z.ZodType;
  /** 'json' (enveloped), 'sse' (text/event-stream) or 'document' (a raw JSON or YAML document). */
  kind?: 'json' | 'sse' | 'document';
  /** First interface version that offers the route (default: every version). */
  since?: ApiVersion;
  /** true for routes the interface does not list but the simulator adds (documented additions). */
  addition?: boolean;
  /** 'control' for the sandbox control plane (admin token, no tenant header), 'inspector' for its page's API; default the interface. */
  surface?: 'interface' | 'control' | 'oauth' | 'inspector';
  /** Error codes worth naming in the OpenAPI document beyond the common ones. */
  errors?: ErrorCode[];
}

/**
 * Declares rows of the route table keeping each row's literal id and schemas, so handlers can be
 * typed from the table (a missing handler or a mistyped body fails `tsc`).
 * @example export const pingRoutes = defineRoutes([{ id: 'ping', method: 'GET', path: '/ping', purpose: 'p', tags: [], auth: false }]);
 */
export function defineRoutes<const T extends readonly RouteDef[]>(routes: T): T {
  return routes;
}
