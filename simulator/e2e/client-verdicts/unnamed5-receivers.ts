import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind, Verify } from './unnamed-receivers.ts';

const parse = (header: string | undefined) => {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.trim().split('=') as [string, string]));
  return { t: parts.t ?? '', v1: parts.v1 ?? '' };
};
/** The interface's rule: HMAC-SHA256 over `<t>.<raw body>`, lowercase hex, constant time, 300 s window. */
const correct = (secret: string, raw: Buffer, header: string | undefined) => {
  const { t, v1 } = parse(header);
  const expected = createHmac('sha256', secret).update(`${t}.`).update(raw).digest('hex');
  return (
    /^\d+$/.test(t) &&
    Math.abs(Date.now() / 1000 - Number(t)) <= 300 &&
    v1.length === expected.length &&
    timingSafeEqual(Buffer.from(v1), Buffer.from(expected))
  );
};

/**
 * A receiver fleet behind a round-robin load balancer: delivery n goes to instance n mod the number of
 * instances, each verifying with the secret it holds (`secretOf(instance, current)`).
 */
function loadBalanced(instances: number, verifyOn: (instance: number) => Verify): Verify {
  let next = 0;
  return (raw, header, secret, id) => verifyOn(next++ % instances)(raw, header, secret, id);
}

/** Round 5 receivers: fleets of receiver instances behind a load balancer. */
export const RECEIVERS_5: ReceiverKind[] = [
  // "The receiver compares in constant time and rejects the delivery when the difference between t and
  // the current time exceeds 300 seconds.": three instances, all holding the rotated secret, sharing
  // one replay cache (a Redis set of delivery ids): any instance refuses a delivery another processed.
  {
    does: 'is a fleet of three instances behind a round-robin load balancer, all rotated to the current secret, sharing one replay cache',
    passes: true,
    verify: (() => {
      const processed = new Set<string>();
      return loadBalanced(3, () => (raw, header, secret, id) => {
        if (!correct(secret, raw, header) || processed.has(id)) return false;
        processed.add(id);
        return true;
      });
    })(),
  },
  // The same sentence, and "the signing key is issued exactly once ... and must be stored at once": one
  // of three instances still holds the secret from before a rotation (its config was not reloaded), so
  // every genuine delivery the balancer sends it is refused.
  {
    does: 'is a fleet of three instances behind a round-robin load balancer where one instance still holds the secret from before a rotation',
    passes: false,
    verify: loadBalanced(
      3,
      (instance) => (raw, header, secret) =>
        correct(instance === 1 ? 'whsec_before_rotation_1f9d' : secret, raw, header),
    ),
  },
];
