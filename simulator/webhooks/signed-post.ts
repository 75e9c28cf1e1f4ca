import type { Clock } from '../lib/clock.ts';
import type { Scheduler } from '../lib/scheduler.ts';
import { signWebhook } from '../contract/webhook-signature.ts';

export type AbortTag = 'timeout' | 'queue_full' | 'shutdown';

export interface SignedPost {
  url: string;
  /** Exact JSON text; signed and sent unchanged. */
  body: string;
  secret: string;
  signatureHeader: string;
  /** Further headers (event name, delivery id, attempt number). */
  headers: Record<string, string>;
  timeoutMs: number;
  fetch: typeof fetch;
  clock: Clock;
  scheduler: Scheduler;
  /** Computes the signature header value (default signWebhook; the kit's self-test swaps it for a broken one). */
  sign?: typeof signWebhook;
}

export interface PostOutcome {
  ok: boolean;
  /** Start time (clock ms). */
  startedAt: number;
  durationMs: number;
  status?: number;
  error?: string;
  /** The signature header's value exactly as sent (the inspector shows it; never recomputed). */
  signature: string;
}

function networkError(err: unknown): string {
  const e = err as { cause?: { code?: string; message?: string }; code?: string; message?: string } | undefined;
  return `network: ${e?.cause?.code ?? e?.code ?? e?.cause?.message ?? e?.message ?? String(err)}`;
}

/**
 * One signed JSON POST, timed out through the scheduler, never following redirects. A 2xx is success;
 * any other answer, a redirect, a timeout or a network failure is a failed attempt with a reason.
 * @example const { done } = postSigned({ url, body, secret, ... }); const outcome = await done;
 */
export function postSigned(req: SignedPost): { done: Promise<PostOutcome>; abort(tag: AbortTag): void } {
  const startedAt = req.clock.now();
  const controller = new AbortController();
  let tag: AbortTag | undefined;
  const abort = (t: AbortTag) => {
    if (tag) return;
    tag = t;
    controller.abort(new Error(t));
  };
  const cancelTimeout = req.scheduler.schedule(() => abort('timeout'), req.timeoutMs);
  const signature = (req.sign ?? signWebhook)(req.body, req.secret, Math.floor(startedAt / 1000));
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'ncs-sandbox-webhooks/1',
    ...req.headers,
    [req.signatureHeader]: signature,
  };
  const finish = (o: Omit<PostOutcome, 'startedAt' | 'durationMs' | 'signature'>): PostOutcome => {
    cancelTimeout();
    return { ...o, startedAt, durationMs: Math.max(0, req.clock.now() - startedAt), signature };
  };
  const done = (async () => {
    try {
      const res = await req.fetch(req.url, {
        method: 'POST',
        headers,
        body: req.body,
        redirect: 'manual',
        signal: controller.signal,
      });
      // The answer's body is not needed; dropping it frees the connection.
      res.body?.cancel().catch(() => {});
      if (tag) return finish({ ok: false, error: tag });
      if (res.status >= 200 && res.status < 300) return finish({ ok: true, status: res.status });
      const redirect = res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400);
      return finish({
        ok: false,
        ...(res.status ? { status: res.status } : {}),
        error: redirect ? 'redirect_not_followed' : `http_${res.status}`,
      });
    } catch (err) {
      return finish({ ok: false, error: tag ?? networkError(err) });
    }
  })();
  return { done, abort };
}
