import type { ReceiverKind } from './unnamed-receivers.ts';
import { signedBy } from './unnamed8-receivers.ts';

const tOf = (h: string | undefined) => /^t=(\d+),/.exec(h ?? '')?.[1] ?? '';
/** Whole seconds between t and the receiver's clock, as an integer clock reads them. */
const ageWholeS = (t: string) => Math.floor(Date.now() / 1000) - Number(t);

/**
 * Round 10 receivers, at the window's edge and on replays. "The receiver compares in constant time and
 * rejects the delivery when the difference between t and the current time exceeds 300 seconds."
 */
export const RECEIVERS_10: ReceiverKind[] = [
  // A stricter window (299 s) on an integer clock, both ways: refuses what must be refused.
  {
    does: 'verifies in constant time with a 299 s window both ways on whole seconds',
    passes: true,
    verify: (raw, h, secret) => {
      const t = tOf(h);
      return /^\d+$/.test(t) && Math.abs(ageWholeS(t)) <= 299 && signedBy(raw, h, secret);
    },
  },
  // A window one second too wide: 301 s old (or ahead) still accepted.
  {
    does: 'verifies in constant time but with a 301 s window (|now − t| <= 301), so a delivery 301 s old is accepted',
    passes: false,
    verify: (raw, h, secret) => {
      const t = tOf(h);
      return /^\d+$/.test(t) && Math.abs(ageWholeS(t)) <= 301 && signedBy(raw, h, secret);
    },
  },
  // "Deliveries are recorded in a delivery log and can be triggered again on request": a replayed
  // delivery (same id, valid signature, in the window) is acknowledged again, processed once.
  {
    does: 'verifies in constant time with the 300 s window and acknowledges a delivery id it has seen again with 204 (processed once)',
    passes: true,
    verify: (() => {
      const seen = new Set<string>();
      return (raw: Buffer, h: string | undefined, secret: string, id: string) => {
        const t = tOf(h);
        if (!(/^\d+$/.test(t) && Math.abs(ageWholeS(t)) <= 300 && signedBy(raw, h, secret))) return false;
        seen.add(id);
        return true;
      };
    })(),
  },
];
