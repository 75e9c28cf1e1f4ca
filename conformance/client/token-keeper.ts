/** A token as the token endpoint issued it. */
export interface IssuedToken {
  accessToken: string;
  /** Lifetime in seconds (`expires_in`), when the endpoint said. */
  expiresIn?: number;
  /** When the kit asked for it (ms): its lifetime runs from no later than that. */
  requestedAt?: number;
}

/**
 * The run's token from the client credentials grant, renewed as the interface asks of clients ("tokens
 * are short-lived and are renewed, not extended"): a run that waits out a rate-limit window can outlive a
 * short token, and its later calls must not be 401s the kit blames on the deployment.
 */
export interface TokenKeeper {
  /** The token to send now. */
  current(): string;
  /** The current token, renewed first when most of its stated lifetime has passed. */
  fresh(): Promise<string>;
  /**
   * After a 401 to `used`: a new token when `used` may have expired (the endpoint stated no lifetime, or
   * it has nearly run out, and it is older than `MIN_AGE_FOR_RENEWAL_MS`), else undefined (the 401 is the
   * deployment's answer to the call, not to an old token). At most one renewal per token.
   */
  afterUnauthorized(used: string): Promise<string | undefined>;
  /** A new token now, whatever the current one's age (a check that renews as clients do). */
  renew(): Promise<string>;
}

/** Renew once this share of the stated lifetime has passed (what careful clients do; 80 % is common). */
const RENEW_AT_SHARE = 0.8;
/** A 401 to a token younger than this is an answer about the call: an expiry so soon is no renewal's to fix. */
export const MIN_AGE_FOR_RENEWAL_MS = 10_000;

/**
 * Keeps the run's token fresh; `renew` asks the token endpoint again, `onIssued` sees every new token
 * (the run registers it with the redactor).
 * @example const keeper = tokenKeeper(first, () => requestClientCredentialsToken(client, creds), (t) => redactor.add(t, 'NCS_TOKEN'));
 */
export function tokenKeeper(
  first: IssuedToken,
  renew: () => Promise<IssuedToken>,
  /** Sees every new token; `deliberate` when a check asked for it (renew), not because the old one ran out. */
  onIssued: (token: string, deliberate: boolean) => void = () => {},
  now: () => number = Date.now,
): TokenKeeper {
  let token = first.accessToken;
  // A token's age counts from when it was asked for, not when its answer arrived: on a loaded machine the
  // answer can take a second, which a 2 s token has then already spent on the deployment's clock.
  let issuedAt = first.requestedAt ?? now();
  let lifetimeMs = first.expiresIn !== undefined ? first.expiresIn * 1000 : undefined;
  let renewing: Promise<string> | undefined;
  const renewedFor = new Set<string>();

  const doRenew = (deliberate = false) => {
    const asked = now();
    renewing ??= renew()
      .then((next) => {
        token = next.accessToken;
        issuedAt = asked;
        lifetimeMs = next.expiresIn !== undefined ? next.expiresIn * 1000 : undefined;
        onIssued(token, deliberate);
        return token;
      })
      .finally(() => {
        renewing = undefined;
      });
    return renewing;
  };
  const dueAt = () => (lifetimeMs === undefined ? Number.POSITIVE_INFINITY : issuedAt + lifetimeMs * RENEW_AT_SHARE);

  return {
    current: () => token,
    renew: () => renewing ?? doRenew(true),
    async fresh() {
      if (renewing) return renewing;
      return now() >= dueAt() ? doRenew() : token;
    },
    async afterUnauthorized(used) {
      if (used !== token) return token; // renewed meanwhile by another call
      // A renewal under way (another call's 401, or the 80 % renewal): wait for its token. Without this, calls
      // refused while a renewal was in flight kept their 401 (many probes at a short token's expiry).
      if (renewing) return renewing;
      // A token whose stated lifetime is shorter than the usual minimum age (8 s tokens) may run out sooner:
      // half of its renewal point is old enough then.
      const minAge =
        lifetimeMs === undefined
          ? MIN_AGE_FOR_RENEWAL_MS
          : Math.min(MIN_AGE_FOR_RENEWAL_MS, (lifetimeMs * RENEW_AT_SHARE) / 2);
      if (renewedFor.has(used) || now() - issuedAt < minAge) return undefined;
      // A stated lifetime far from its end: the 401 is about the call (a check's probe), not the token.
      if (lifetimeMs !== undefined && now() < issuedAt + lifetimeMs * RENEW_AT_SHARE - minAge) return undefined;
      renewedFor.add(used);
      return doRenew();
    },
  };
}
