// Request bodies, checked the way the contract states them (strong parameters made strict: types are not
// coerced, lengths count characters). Messages follow Active Model's wording and never quote the value.
import { ApiError, chars } from './util.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

function text(body: Record<string, unknown>, name: string, min: number, max: number): string {
  const v = body[name];
  if (v === undefined) throw new ApiError('invalid_request', `param is missing: ${name}`, `${name} is required`);
  if (typeof v !== 'string') throw new ApiError('invalid_request', `${name} must be a string`);
  const n = chars(v);
  if (n < min) throw new ApiError('invalid_request', `${name} is too short (minimum is ${min} characters)`);
  if (n > max) throw new ApiError('invalid_request', `${name} is too long (maximum is ${max} characters)`);
  return v;
}

function environment(body: Record<string, unknown>, required: boolean): string {
  const v = body.environment;
  if (v === undefined && !required) return 'sandbox';
  if (v === undefined) throw new ApiError('invalid_request', 'param is missing: environment');
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw new ApiError(
      'invalid_request',
      'environment is not included in the list',
      `one of ${ENVIRONMENTS.join(', ')}`,
    );
  }
  return v;
}

export function capabilityCheckBody(body: Record<string, unknown>) {
  return {
    connectorId: text(body, 'connectorId', 2, 120),
    capability: text(body, 'capability', 2, 120),
    environment: environment(body, false),
  };
}

const CONNECTION_FIELDS = ['connectorId', 'environment', 'scopeLabel', 'capabilities'];

/** "The field list above is the schema": an unknown field (the sample's restaurantId) is refused. */
export function connectionBody(body: Record<string, unknown>) {
  const unknown = Object.keys(body).filter((k) => !CONNECTION_FIELDS.includes(k));
  if (unknown.length > 0) {
    throw new ApiError(
      'invalid_request',
      `found unpermitted parameter: ${unknown[0]}`,
      `allowed: ${CONNECTION_FIELDS.join(', ')}`,
    );
  }
  const connectorId = text(body, 'connectorId', 2, 120);
  const env = environment(body, true);
  const scopeLabel = text(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (caps === undefined) throw new ApiError('invalid_request', 'param is missing: capabilities');
  if (!Array.isArray(caps)) throw new ApiError('invalid_request', 'capabilities must be an array of strings');
  if (caps.length < 1) throw new ApiError('invalid_request', 'capabilities is too short (minimum is 1 item)');
  if (caps.length > 24) throw new ApiError('invalid_request', 'capabilities is too long (maximum is 24 items)');
  caps.forEach((c, i) => {
    if (typeof c !== 'string') throw new ApiError('invalid_request', `capabilities[${i}] must be a string`);
    const n = chars(c);
    if (n < 2 || n > 120) throw new ApiError('invalid_request', `capabilities[${i}] must be 2 to 120 characters long`);
  });
  return { connectorId, environment: env, scopeLabel, capabilities: caps as string[] };
}

export function keyRequestBody(body: Record<string, unknown>) {
  return { operation: text(body, 'operation', 2, 80) };
}

export const WEBHOOK_EVENTS = ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'];

export function webhookBody(body: Record<string, unknown>) {
  const url = text(body, 'url', 8, 2048);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ApiError('invalid_request', 'url is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ApiError('invalid_request', 'url must use http or https');
  }
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0) {
    throw new ApiError(
      'invalid_request',
      'events must be a non-empty array of event names',
      `events: one of ${WEBHOOK_EVENTS.join(', ')}`,
    );
  }
  for (const e of events) {
    if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e)) {
      throw new ApiError(
        'invalid_request',
        'events contains an unknown event name',
        `events: one of ${WEBHOOK_EVENTS.join(', ')}`,
      );
    }
  }
  return { url, events: [...new Set(events as string[])] };
}
