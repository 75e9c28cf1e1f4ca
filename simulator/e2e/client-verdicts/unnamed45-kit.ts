import type { Target } from '../harness.ts';
import { type Auth, api, auth, CONNECTION, type Reply } from './unnamed-kit.ts';
import { createWith } from './unnamed11-kit.ts';

/**
 * Round 45 is about remedies after 4xx answers (a 400 fixed in the body, a header or the key; a 403 followed
 * by another tenant or another access; a 404 after a wrong id; a 409 capability_denied; a 428 answered by a
 * key), mixed with concurrency: workers sharing one token cache, parallel creates, a stream reader and a
 * writer in one process. Each client is written from its library's documentation (none is installed).
 */

/**
 * A token cache shared by every worker of one process, renewing single-flight: workers that meet a 401 at
 * once all wait for the one renewal (Caffeine's `AsyncLoadingCache`, a Go `singleflight.Group`, Kotlin's
 * `Mutex`-guarded `Deferred`). `invalidate(old)` drops the token only if it is still the one held.
 */
export function sharedTokenCache(t: Target, client?: string, ttlS = 3_600) {
  let held: Auth = auth(t, client, ttlS);
  let renewing: Promise<Auth> | undefined;
  return {
    get: (): Auth => held,
    renew(old: Auth): Promise<Auth> {
      if (held.token !== old.token) return Promise.resolve(held);
      renewing ??= Promise.resolve().then(() => {
        held = auth(t, client, ttlS);
        renewing = undefined;
        return held;
      });
      return renewing;
    },
  };
}

/** A venue's create body. */
export const venue = (scopeLabel: string, extra: object = {}) => ({ ...CONNECTION, scopeLabel, ...extra });

/** `+/` and 10 random bytes as standard base64 (`+`, `/`, `=`: outside the Limits' key pattern), from a seeded draw. */
export function base64Key(random: () => number): string {
  const bytes = Buffer.from(Array.from({ length: 10 }, () => Math.floor(random() * 256)));
  // Ten bytes always end in `==`; force a `+` and a `/` in so the key is refused whatever the draw.
  return `+/${bytes.toString('base64')}`;
}

/** RFC 4648 §5 base64url without padding: inside the pattern (letters, digits, `-`, `_`). */
export const base64url = (key: string) => key.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

/** A create that must be refused with `status` (and `code`, when given), or the run throws. */
export function refused(what: string, r: Reply, status: number, code?: string): Reply {
  if (r.status !== status || (code && r.json?.error?.code !== code))
    throw new Error(`${what}: ${r.status} ${r.json?.error?.code ?? ''}, expected ${status} ${code ?? ''}`);
  return r;
}

/** A capability check (a POST that changes nothing) of `capability` on `connectorId`. */
export const checkOn = (t: Target, a: Auth, connectorId: string, capability: string, environment?: string) =>
  api(t, a, 'POST', '/capabilities', {
    body: { connectorId, capability, ...(environment ? { environment } : {}) },
  });

/** A create that answers 200, under `key`: its connection id. */
export async function created(t: Target, a: Auth, body: object, key: string): Promise<string> {
  const r = await createWith(t, a, body, key);
  if (r.status !== 200) throw new Error(`create ${key} answered ${r.status}`);
  return r.json.data.id as string;
}

/** A create refused 409 capability_denied: payments.refund is not released for the POS connector in production. */
export const PRODUCTION_REFUND = venue('Production Refund Parlour', { environment: 'production' });
