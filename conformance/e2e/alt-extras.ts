import type { ServerResponse } from 'node:http';
import type { AltChoices } from './alt-choices.ts';
import { writeJsonValue } from './alt-wire.ts';

/**
 * More legal choices of an alternative target (alt-choices.ts, `extras`), the kind independent
 * implementations make where the interface is silent: where the webhook signing key sits and whether a
 * replay repeats it, CloudEvents deliveries signed by a clock running ahead, `meta.idempotencyKey` on
 * replays only, a gateway's rate-limit pool on the public endpoints, an authorization server's own
 * token answers and throttle, a delivery log in its own shape. Absent: the simulator's choice.
 */
export interface ExtraChoices {
  /** Dotted path under `data` of the creation answer holding the signing key ("Response fields: not shown"). */
  secretPath?: string;
  /** A replayed registration leaves the signing key out (it "is issued exactly once"). */
  replayWithoutSecret?: boolean;
  /** Deliveries as CloudEvents 1.0 in structured mode (application/cloudevents+json); payload not shown. */
  cloudEvents?: boolean;
  /** A delivery's body states its attempt (CloudEvents extension `deliveryattempt`): one triggered again differs. */
  attemptInBody?: boolean;
  /** The signer's clock runs this many seconds ahead of the receiver's (within the 300 s window). */
  signerAheadSeconds?: number;
  /** meta.idempotencyKey only on replays, meta.replayed false on every other answer (both fields optional). */
  keyEchoOnReplaysOnly?: boolean;
  /** The gateway's anonymous rate-limit pool on the public endpoints too, and the IETF RateLimit header. */
  publicRateLimit?: boolean;
  /** The token endpoint: `token_type` in lower case, fields of its own, and every other request throttled (429, Retry-After: 1). */
  tokenQuirks?: boolean;
  /** The delivery log as `data.items` with snake_case fields (its payload is not shown). */
  snakeDeliveryLog?: boolean;
}

type Json = Record<string, unknown>;

/** A delivery's body and content type as this deployment sends it (the simulator's body, maybe wrapped). */
export function deliveryBody(text: string, c: AltChoices, attempt = 1): { body: string; contentType: string } {
  if (!c.extras?.cloudEvents) return { body: text, contentType: 'application/json' };
  let sim: Json;
  try {
    sim = JSON.parse(text) as Json;
  } catch {
    return { body: text, contentType: 'application/json' };
  }
  const event = {
    specversion: '1.0',
    id: sim.id,
    type: sim.type,
    source: `/api/public/v1/tenants/${String(sim.tenant)}`,
    time: sim.createdAt,
    datacontenttype: 'application/json',
    ...(c.extras.attemptInBody ? { deliveryattempt: attempt } : {}),
    data: sim.data,
  };
  const body = c.wire ? writeJsonValue(event, c.wire) : JSON.stringify(event);
  return { body, contentType: 'application/cloudevents+json; charset=utf-8' };
}

/** The webhook creation answer with the signing key at its own place (and left out of a replay). */
export function placeSecret(body: Json, x: ExtraChoices): void {
  const data = body.data as Json | undefined;
  if (!x.secretPath || !data || typeof data.signingSecret !== 'string') return;
  const secret = data.signingSecret;
  delete data.signingSecret;
  const keys = x.secretPath.split('.');
  let at = data;
  for (const k of keys.slice(0, -1)) {
    at[k] ??= { algorithm: 'HMAC-SHA256' };
    at = at[k] as Json;
  }
  if (!(x.replayWithoutSecret && (body.meta as Json | undefined)?.replayed === true))
    at[keys.at(-1) ?? 'signingKey'] = secret;
}

/** meta as this deployment writes it: the key echoed on replays only, `replayed` always stated. */
export function echoKey(body: Json, x: ExtraChoices): void {
  const meta = body.meta as Json | undefined;
  if (!x.keyEchoOnReplaysOnly || !meta || typeof meta !== 'object') return;
  if (meta.replayed === true) return;
  delete meta.idempotencyKey;
  meta.replayed = false;
}

/** The delivery log in this deployment's shape. */
export function reshapeDeliveryLog(body: Json, x: ExtraChoices): Json {
  const data = body.data as Json | undefined;
  if (!x.snakeDeliveryLog || !data || !Array.isArray(data.deliveries)) return body;
  const items = (data.deliveries as Json[]).map((d) => ({
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    state: d.status,
    attempts: d.attempts,
    created_at: d.createdAt,
  }));
  body.data = { webhook_id: data.webhookId, items, total: items.length };
  return body;
}

/** The gateway's own count of anonymous calls to the public endpoints (one window of a minute). */
export function publicRatePool(limit = 1000) {
  let windowStart = Date.now();
  let used = 0;
  return (): Record<string, string> => {
    if (Date.now() - windowStart > 60_000) [windowStart, used] = [Date.now(), 0];
    used = Math.min(used + 1, limit);
    const reset = Math.max(1, Math.ceil((windowStart + 60_000 - Date.now()) / 1000));
    return rateHeaders(limit, limit - used, reset);
  };
}

/** X-RateLimit-* and the IETF RateLimit header, written in lower case. */
export function rateHeaders(limit: number, remaining: number, reset: number): Record<string, string> {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    ratelimit: `limit=${limit}, remaining=${remaining}, reset=${reset}`,
  };
}

/** The IETF RateLimit header beside the deployment's X-RateLimit-* ones. */
export function ietfRateLimit(out: Record<string, string>): Record<string, string> {
  const limit = out['x-ratelimit-limit'];
  const remaining = out['x-ratelimit-remaining'];
  if (limit !== undefined && remaining !== undefined && out.ratelimit === undefined)
    out.ratelimit = `limit=${limit}, remaining=${remaining}, reset=60`;
  return out;
}

/** The authorization server's throttle: every other token request is answered 429 with a wait of a second. */
export function tokenThrottle() {
  let requests = 0;
  return () => ++requests % 2 === 1;
}

/** The throttle's answer: 429 with a wait, as an authorization server writes it. */
export function throttledAnswer(res: ServerResponse): void {
  res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":"slow_down"}');
}

/** A token answer as this authorization server writes it. */
export function tokenAnswer(text: string): string {
  try {
    const json = JSON.parse(text) as Json;
    if (typeof json.access_token !== 'string') return text;
    return JSON.stringify({
      ...json,
      token_type: 'bearer',
      ext_expires_in: json.expires_in,
      'not-before-policy': 0,
      session_state: 'none',
    });
  } catch {
    return text;
  }
}
