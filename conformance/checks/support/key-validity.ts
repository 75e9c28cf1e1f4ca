// Whether a replay's miss can be judged: "Validity period of an idempotency key (only the expiry timestamp is
// returned): not shown". A key the deployment issued is valid until the expiresAt it returned (a second's
// margin for the call in flight); a key the kit made up is taken as valid within a second of its first use,
// which any validity covers (zelkova keeps keys 2 s, and on a loaded machine a creation and its replay took
// longer than that). One rule for every check that sends a key again.

/** The span after a key's first use within which any validity is taken to cover it. */
export const KEY_FLOOR_MS = 1000;

/** A key as the kit used it: when its first use was sent, and the expiry the deployment issued it with, if any. */
export interface KeyUse {
  firstSentAt: number;
  /** Epoch ms of the issued key's expiresAt (POST /idempotency-keys), when the deployment issued the key. */
  expiresAt?: number | undefined;
}

/**
 * Why a replay sent now is not judged (its key may have expired), or undefined where it is judged.
 * @example const why = replayUnjudged({ firstSentAt: t0 }); if (why && missed) ctx.note(why);
 */
export function replayUnjudged(key: KeyUse, now = Date.now()): string | undefined {
  if (key.expiresAt !== undefined && Number.isFinite(key.expiresAt))
    return key.expiresAt - now > KEY_FLOOR_MS
      ? undefined
      : `the issued key expires at ${new Date(key.expiresAt).toISOString()}, within a second of its replay: its validity period is the deployment's (not shown)`;
  const span = now - key.firstSentAt;
  return span > KEY_FLOOR_MS
    ? `the key was sent again ${span} ms after its first use (a key's validity is not shown)`
    : undefined;
}
