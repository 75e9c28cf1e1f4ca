// The signing keys the run was issued, by the label of the receiver URL each was issued for: webhooks.signature
// verifies every delivery to a labelled receiver with its own key, not only the scenario's. A registration sent
// again that registers a second receiver for the same URL (an address with its own idempotency store) shows there:
// that receiver signs with a key the kit was never issued.
import type { CheckContext } from '../../runner/check.ts';

/**
 * The run's map of receiver label to the signing key issued for it (one map per run).
 * @example (await knownSigningKeys(ctx)).set(label, key)
 */
export function knownSigningKeys(ctx: CheckContext): Promise<Map<string, string>> {
  return ctx.shared('known-signing-keys', async () => new Map<string, string>());
}

/**
 * The label among `labels` a receiver request's path ends a segment with (not a longer label it merely starts).
 * @example labelOfPath('/hooks/run1-replay-receiver?x=1', ['run1-replay-receiver']) // 'run1-replay-receiver'
 */
export function labelOfPath(path: string, labels: Iterable<string>): string | undefined {
  for (const label of labels) {
    const at = path.indexOf(label);
    if (at >= 0 && /^(?:$|[/?#])/.test(path.slice(at + label.length))) return label;
  }
  return undefined;
}
