import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { signWebhook } from '../contract/webhook-signature.ts';
import { newId } from '../lib/ids.ts';
import { undiciFetch } from './undici-fetch.ts';

/** The interface's window is 300 s: one second beyond it either way must be refused. */
export const SKEW_BEYOND_WINDOW_S = 301;

export interface ReceiverCheckCase {
  name: string;
  /** accept: the receiver must answer 2xx; reject: anything but 2xx. */
  expect: 'accept' | 'reject';
  /**
   * Reported, not failing: the interface writes the signature in lowercase hex, and a receiver that
   * decodes the hex before its constant-time compare (as verifyWebhook does) also takes upper case;
   * and it gives receivers no duty about duplicates or order (a receiver may refuse a delivery id it
   * has processed, or an older event after a newer one), so those cases advise, they do not fail.
   */
  advisory?: boolean;
  status?: number;
  error?: string;
  ms: number;
  pass: boolean;
  note: string;
}

export interface ReceiverCheckResult {
  receiverId: string;
  tenant: string;
  url: string;
  startedAt: string;
  durationMs: number;
  /** Every answer must come within this (ms). */
  timeoutMs: number;
  pass: boolean;
  cases: ReceiverCheckCase[];
}

export interface ReceiverCheckOptions {
  receiver: { id: string; url: string; secret: string; tenant: string };
  signatureHeader: string;
  /** Default: undici's own fetch, so MSW in the same process never intercepts the check. */
  fetch?: typeof fetch;
  /** Default: the delivery timeout, 5,000 ms. */
  timeoutMs?: number;
  /** Real time (receivers compare t with their own clock). */
  now?: () => number;
}

interface Send {
  name: string;
  expect: 'accept' | 'reject';
  note: string;
  body: string;
  deliveryId: string;
  /** The signature header value; undefined sends none. */
  signature: string | undefined;
  advisory?: boolean;
  /** Signs at send time: the skewed cases must be 301 s off the receiver's clock when they arrive, not when planned. */
  signAtSend?: () => string | undefined;
}

/**
 * Sends a registered receiver a scored sequence and judges its answers: a valid delivery, a valid one
 * with spaced JSON, a tampered body, a signature with another key, t 301 s old and 301 s ahead,
 * upper-case hex, the header missing, the same delivery twice, two deliveries out of order. Passing: 2xx
 * for the valid ones, anything else for the forged, stale and malformed ones, every answer within
 * `timeoutMs`; upper-case hex, the duplicate and the order are advisory (no duty of the interface).
 * @example const result = await runReceiverCheck({ receiver, signatureHeader: 'NCS-Signature' }); result.pass
 */
export async function runReceiverCheck(opts: ReceiverCheckOptions): Promise<ReceiverCheckResult> {
  const doFetch = opts.fetch ?? undiciFetch;
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs;
  const now = opts.now ?? Date.now;
  const started = now();
  const cases: ReceiverCheckCase[] = [];
  for (const send of plan(opts.receiver, now)) cases.push(await deliver(doFetch, opts, send, timeoutMs));
  return {
    receiverId: opts.receiver.id,
    tenant: opts.receiver.tenant,
    url: opts.receiver.url,
    startedAt: new Date(started).toISOString(),
    durationMs: now() - started,
    timeoutMs,
    pass: cases.every((c) => c.pass || c.advisory),
    cases,
  };
}

function plan(r: ReceiverCheckOptions['receiver'], now: () => number): Send[] {
  const t = () => Math.floor(now() / 1000);
  const at = (ms: number) => new Date(now() + ms).toISOString();
  const body = (id: string, createdAt: string, amount: number) =>
    JSON.stringify({
      id,
      type: 'order.created',
      createdAt,
      tenant: r.tenant,
      data: { orderId: newId('ord'), amountCents: amount, receiverCheck: true },
    });
  const sign = (b: string) => signWebhook(b, r.secret, t());
  const valid = body(newId('evt'), at(0), 1200);
  const validId = newId('dlv');
  const validSignature = sign(valid);
  // Another body under the valid delivery's signature header, as a new delivery: a receiver that skips the
  // HMAC for a signature it accepted before (a cache of verified signatures) takes it.
  const reusedSignatureBody = body(newId('evt'), at(0), 1250);
  // The same kind of delivery with spaces and line breaks: only the raw bytes verify, not the body parsed and written again.
  const spaced = JSON.stringify(JSON.parse(body(newId('evt'), at(0), 1300)), null, 2);
  const tamperedSource = body(newId('evt'), at(0), 1500);
  const otherKey = `whsec_${randomBytes(32).toString('base64url')}`;
  const later = body(newId('evt'), at(2000), 3000);
  const earlier = body(newId('evt'), at(1000), 2000);
  const fresh = (
    b: string,
    name: string,
    expect: Send['expect'],
    note: string,
    signature: string | undefined,
  ): Send => ({
    name,
    expect,
    note,
    body: b,
    deliveryId: newId('dlv'),
    signature,
  });
  const other = () => body(newId('evt'), at(0), 1800);
  const sends: Send[] = [
    {
      name: 'valid',
      expect: 'accept',
      note: 'a correctly signed delivery',
      body: valid,
      deliveryId: validId,
      signature: validSignature,
    },
    fresh(
      spaced,
      'valid-spaced',
      'accept',
      'a correctly signed delivery whose JSON has spaces and line breaks',
      sign(spaced),
    ),
    fresh(
      tamperedSource.replace('1500', '9500'),
      'tampered-body',
      'reject',
      'body changed after signing',
      sign(tamperedSource),
    ),
    fresh(other(), 'other-key', 'reject', 'signed with another key', undefined),
    // A receiver trying a list of keys ([current, previous]) whose unset entry reads as "" takes what anyone can sign.
    fresh(other(), 'empty-key', 'reject', 'signed with an empty key (HMAC keyed with "")', undefined),
    fresh(other(), 'timestamp-301s-old', 'reject', `t ${SKEW_BEYOND_WINDOW_S} s in the past`, undefined),
    fresh(other(), 'timestamp-301s-ahead', 'reject', `t ${SKEW_BEYOND_WINDOW_S} s in the future`, undefined),
    // A delivery captured and sent again whole later: its event's own time as old as its t, so a receiver
    // comparing t with the body's createdAt (not with its clock) takes it.
    fresh(
      body(newId('evt'), at(-SKEW_BEYOND_WINDOW_S * 1000), 1900),
      'timestamp-301s-old-replayed',
      'reject',
      `t and the event's createdAt both ${SKEW_BEYOND_WINDOW_S} s in the past (a captured delivery replayed)`,
      undefined,
    ),
    fresh(other(), 'uppercase-hex', 'reject', 'the signature in upper-case hex', undefined),
    // A compare over the shorter of the two (C's strncmp(v1, expected, strlen(v1))) takes a cut signature.
    fresh(other(), 'signature-truncated', 'reject', 'v1 cut to its first 16 hex digits', undefined),
    fresh(other(), 'signature-empty', 'reject', 'v1 empty', undefined),
    fresh(other(), 'header-missing', 'reject', 'no signature header', undefined),
    {
      name: 'duplicate',
      expect: 'accept',
      note: 'the valid delivery again (same delivery id)',
      body: valid,
      deliveryId: validId,
      signature: validSignature,
      advisory: true,
    },
    {
      ...fresh(later, 'out-of-order-later-first', 'accept', 'the later event sent first', sign(later)),
      advisory: true,
    },
    {
      ...fresh(earlier, 'out-of-order-earlier-second', 'accept', 'the earlier event sent second', sign(earlier)),
      advisory: true,
    },
    // Last, so the cases before it reach a fleet's instances as they always did.
    fresh(
      reusedSignatureBody,
      'signature-reused-other-body',
      'reject',
      "the valid delivery's signature header on another body, as a new delivery (a cache of accepted signatures takes it)",
      validSignature,
    ),
  ];
  return sends.map((s) => ({ ...s, signAtSend: () => withSignature(s, r.secret, otherKey, t).signature }));
}

/** Signatures of the cases that need one made at send time (the skewed and malformed ones). */
function withSignature(s: Send, secret: string, otherKey: string, t: () => number): Send {
  switch (s.name) {
    case 'other-key':
      return { ...s, signature: signWebhook(s.body, otherKey, t()) };
    case 'empty-key': {
      // signWebhook refuses an empty key (rightly, for a sender): the forged signature is made by hand.
      const now = t();
      return { ...s, signature: `t=${now},v1=${createHmac('sha256', '').update(`${now}.${s.body}`).digest('hex')}` };
    }
    case 'timestamp-301s-old':
    case 'timestamp-301s-old-replayed':
      return { ...s, signature: signWebhook(s.body, secret, t() - SKEW_BEYOND_WINDOW_S) };
    case 'timestamp-301s-ahead':
      // From the next whole second: 301 s ahead of the receiver's clock on arrival, not 300.x s ahead of
      // a fractional one (a correct receiver with an exact 300 s window took those when a delivery was slow).
      return { ...s, signature: signWebhook(s.body, secret, t() + 1 + SKEW_BEYOND_WINDOW_S) };
    case 'signature-truncated':
      return { ...s, signature: signWebhook(s.body, secret, t()).replace(/v1=([0-9a-f]{16})[0-9a-f]+/, 'v1=$1') };
    case 'signature-empty':
      return { ...s, signature: signWebhook(s.body, secret, t()).replace(/v1=[0-9a-f]+/, 'v1=') };
    case 'uppercase-hex': {
      const sig = signWebhook(s.body, secret, t());
      return { ...s, signature: sig.replace(/v1=([0-9a-f]+)/, (_m, hex: string) => `v1=${hex.toUpperCase()}`) };
    }
    default:
      return s;
  }
}

async function deliver(
  doFetch: typeof fetch,
  opts: ReceiverCheckOptions,
  s: Send,
  timeoutMs: number,
): Promise<ReceiverCheckCase> {
  const started = performance.now();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'ncs-sandbox-receiver-check/1',
    [WEBHOOK_DEFAULTS.eventHeader]: 'order.created',
    [WEBHOOK_DEFAULTS.deliveryHeader]: s.deliveryId,
    [WEBHOOK_DEFAULTS.attemptHeader]: '1',
    'ncs-receiver-check': s.name,
  };
  const signature = s.signAtSend ? s.signAtSend() : s.signature;
  if (signature) headers[opts.signatureHeader] = signature;
  const base = {
    name: s.name,
    expect: s.expect,
    note: s.note,
    ...(s.name === 'uppercase-hex' || s.advisory ? { advisory: true } : {}),
  };
  try {
    const res = await doFetch(opts.receiver.url, {
      method: 'POST',
      headers,
      body: s.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    res.body?.cancel().catch(() => {});
    const ms = Math.round(performance.now() - started);
    const accepted = res.status >= 200 && res.status < 300;
    const pass = accepted === (s.expect === 'accept');
    return { ...base, status: res.status, ms, pass };
  } catch (err) {
    const ms = Math.round(performance.now() - started);
    const timedOut = (err as Error)?.name === 'TimeoutError' || (err as Error)?.name === 'AbortError';
    return {
      ...base,
      error: timedOut ? `no answer within ${timeoutMs} ms` : `network: ${(err as Error)?.message ?? err}`,
      ms,
      // No answer accepts nothing: a forged or stale delivery refused by closing the connection (or never
      // answered) is rejected, as the interface asks, in a way it does not prescribe; a valid one is lost.
      pass: s.expect === 'reject',
    };
  }
}
