// Request validation, Hasura-style: every violation names the JSON path it was found at. The contract's
// limits are stated once here; unknown fields are refused where the contract says the list is the schema.
import { chars, invalid } from './util.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

export function object(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw invalid('the request body must be a JSON object', '$');
  return body as Record<string, unknown>;
}

export function text(o: Record<string, unknown>, field: string, min: number, max: number, path = `$.${field}`): string {
  const v = o[field];
  if (v === undefined) throw invalid(`missing required field "${field}"`, path);
  if (typeof v !== 'string') throw invalid(`expected a string for "${field}"`, path);
  const n = chars(v);
  if (n < min || n > max) throw invalid(`"${field}" must be ${min} to ${max} characters long`, path);
  return v;
}

export function environment(o: Record<string, unknown>, required: boolean): string {
  const v = o.environment;
  if (v === undefined && !required) return 'sandbox';
  if (v === undefined) throw invalid('missing required field "environment"', '$.environment');
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v))
    throw invalid(`"environment" must be one of ${ENVIRONMENTS.join(', ')}`, '$.environment');
  return v;
}

export function onlyFields(o: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) throw invalid(`unexpected field "${k}"`, `$.${k}`);
}

export interface CheckBody {
  connectorId: string;
  capability: string;
  environment: string;
}
export function checkBody(body: unknown): CheckBody {
  const o = object(body);
  onlyFields(o, ['connectorId', 'capability', 'environment']);
  return {
    connectorId: text(o, 'connectorId', 2, 120),
    capability: text(o, 'capability', 2, 120),
    environment: environment(o, false),
  };
}

export interface CreateBody {
  connectorId: string;
  environment: string;
  scopeLabel: string;
  capabilities: string[];
}
export function createBody(body: unknown): CreateBody {
  const o = object(body);
  onlyFields(o, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = text(o, 'connectorId', 2, 120);
  const env = environment(o, true);
  const scopeLabel = text(o, 'scopeLabel', 2, 120);
  const caps = o.capabilities;
  if (caps === undefined) throw invalid('missing required field "capabilities"', '$.capabilities');
  if (!Array.isArray(caps)) throw invalid('expected an array for "capabilities"', '$.capabilities');
  if (caps.length < 1 || caps.length > 24) throw invalid('"capabilities" must have 1 to 24 items', '$.capabilities');
  const list = caps.map((_, i) =>
    text(caps as unknown as Record<string, unknown>, String(i), 2, 120, `$.capabilities[${i}]`),
  );
  return { connectorId, environment: env, scopeLabel, capabilities: list };
}

export function keyBody(body: unknown): { operation: string } {
  const o = object(body);
  onlyFields(o, ['operation']);
  return { operation: text(o, 'operation', 2, 80) };
}

export function webhookBody(body: unknown, known: string[]): { url: string; events: string[]; description?: string } {
  const o = object(body);
  const url = text(o, 'url', 8, 2048);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('"url" must be an absolute http(s) URL', '$.url');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw invalid('"url" must be an absolute http(s) URL', '$.url');
  const ev = o.events;
  if (!Array.isArray(ev) || ev.length < 1 || ev.length > 20)
    throw invalid('"events" must be an array of 1 to 20 event names', '$.events');
  ev.forEach((e, i) => {
    if (typeof e !== 'string' || !known.includes(e))
      throw invalid(`"events" items: one of ${known.join(', ')}`, `$.events[${i}]`);
  });
  const description = typeof o.description === 'string' ? o.description.slice(0, 200) : undefined;
  return { url, events: [...new Set(ev as string[])], description };
}
