import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { CURRENT_VERSION } from '../../simulator/contract/versions.ts';
import { signWebhook } from '../../simulator/contract/webhook-signature.ts';
import { forwardFetch } from '../test-support/forward-fetch.ts';
import type { AltChoices } from './alt-choices.ts';
import { deliveryBody } from './alt-extras.ts';
import { deliveryHeaders } from './alt-further.ts';

/** Helpers of the alternative target's proxy (alt-target.ts): its own failure answers, ids, header copying and the delivery relay. */
export const ID_FORMATS = {
  uuid: { make: () => randomUUID(), find: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g },
  counter: { make: (n: number) => `cx-${String(n).padStart(8, '0')}`, find: /\bcx-\d{8}\b/g },
  // Resource names (Google AIP-122 style): a `/` inside the id, percent-encoded when it is put in a path.
  path: {
    make: (n: number) => `connections/c${String(n).padStart(8, '0')}`,
    find: /\bconnections(?:\/|%2F)c\d{8}\b/gi,
  },
  // ULIDs (Crockford base 32, upper case, time first): a counter after a fixed time part.
  ulid: { make: (n: number) => `01JZ8Q${String(n).padStart(20, '0')}`, find: /\b01JZ8Q\d{20}\b/g },
} as const;

const meta = () => ({ requestId: `alt_${randomUUID()}`, version: CURRENT_VERSION, at: new Date().toISOString() });
export function envelope(res: ServerResponse, status: number, code: string, message: string) {
  const m = meta();
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': m.requestId });
  res.end(JSON.stringify({ ok: false, error: { code, message }, meta: m }));
}

/**
 * Receivers registered through the proxy get their deliveries through its relay: bodies name the
 * proxy's ids and are signed again with the receiver's key, as the alternative deployment would.
 *
 * @example const { receivers, relay } = createRelay(ALT_C, (t) => t);
 */
export function createRelay(c: AltChoices, outward: (text: string) => string) {
  const receivers: { url: string; secret?: string }[] = [];
  // How often each delivery (the simulator's id) was sent: a delivery triggered again is its next attempt.
  const attempts = new Map<string, number>();
  async function relay(index: number, raw: Buffer, deliveryId: string | string[] | undefined, res: ServerResponse) {
    const r = receivers[index];
    if (!r?.secret) return void res.writeHead(404).end();
    const key = String(deliveryId);
    attempts.set(key, (attempts.get(key) ?? 0) + 1);
    const { body, contentType } = deliveryBody(outward(raw.toString('utf8')), c, attempts.get(key) ?? 1);
    if (c.webhookDelayMs) {
      // Accepted at once and sent later, as a deployment with a delivery queue would.
      res.writeHead(202).end();
      await new Promise((done) => setTimeout(done, c.webhookDelayMs));
    }
    // What Node's fetch sends, without its streams (forward-fetch.ts); the receiver's answer read to its end.
    const send = (secret: string) =>
      forwardFetch(r.url, {
        method: 'POST',
        headers: {
          ...deliveryHeaders(c.further, contentType),
          [c.signatureHeader]: signWebhook(
            body,
            secret,
            Math.floor(Date.now() / 1000) + (c.extras?.signerAheadSeconds ?? 0),
          ),
          ...(c.deliveryIdHeader && typeof deliveryId === 'string' ? { [c.deliveryIdHeader]: deliveryId } : {}),
        },
        body,
      }).then(
        async (answer) => {
          await answer.text().catch(() => '');
          return answer;
        },
        () => undefined,
      );
    const answer = await send(r.secret);
    // At least once: the same delivery again a moment later, signed anew.
    if (c.behaviour?.duplicateDeliveries) setTimeout(() => void send(r.secret ?? ''), 200);
    if (!res.headersSent) res.writeHead(answer?.status ?? 502).end();
  }
  return { receivers, relay };
}

export function forwardable(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined && k !== 'host' && k !== 'content-length') out[k] = String(v);
  return out;
}

export function parsed(raw: string | undefined): unknown {
  try {
    return raw === undefined ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
}
