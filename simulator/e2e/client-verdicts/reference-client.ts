import { randomUUID } from 'node:crypto';
import { CURRENT_VERSION } from '../../contract/versions.ts';
import { clientTimer, sleepOn, type Target } from '../harness.ts';
import { silenceWatch } from './silence.ts';

/** What a reference client does; the careful one follows the interface, each careless one breaks one duty. */
export interface Behaviour {
  /** Statuses retried (0 = no answer). */
  retryOn(status: number): boolean;
  maxAttempts: number;
  /** Wait before retry n (0-based) after an answer with this Retry-After (ms, 0 without). */
  waitMs(n: number, retryAfterMs: number, random: () => number): number;
  newKeyPerAttempt: boolean;
  serviceVersion: boolean;
  tokenPerCall: boolean;
  /** Sent as Origin (a browser context). */
  origin?: string;
  /** Resume a stream with Last-Event-ID. */
  resumeWithCursor: boolean;
  /** Random numbers in [0, 1) for the jitter (deterministic in tests). */
  random: () => number;
  timeoutMs: number;
}

/** A fixed cycle of "random" numbers: jitter that is spread but reproducible. */
export function cycle(values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

const RETRYABLE = new Set([0, 429, 500, 502, 503, 504]);
/** Real time a stream reader takes to notice silence (see `stream`). */
const QUIET_MS = 250;
/**
 * The guidance's schedule (base doubling plus up to half the base at random) with a base of 300 ms, and
 * a fixed cycle of spread-out random numbers, so timing noise of a loaded machine cannot blur it.
 */
export const careful = (): Behaviour => ({
  retryOn: (s) => RETRYABLE.has(s),
  maxAttempts: 4,
  waitMs: (n, ra, random) => Math.max(ra, 300 * 2 ** n + Math.floor(random() * 300)),
  newKeyPerAttempt: false,
  serviceVersion: true,
  tokenPerCall: false,
  resumeWithCursor: true,
  random: cycle([0.9, 0.5, 0, 0.2, 0.6, 0.9]),
  timeoutMs: 2_000,
});

export interface Answer {
  status: number;
  json: any;
  headers: Headers | undefined;
}

/**
 * A partner's client against one runtime of the sandbox: calls with retries, a stream reader that
 * reconnects. Its behaviour is `careful()` with the given changes.
 * @example const c = referenceClient(target, { serviceVersion: false }); await c.call('GET', '/providers');
 */
export function referenceClient(target: Target, change: Partial<Behaviour> = {}) {
  const b: Behaviour = { ...careful(), ...change };
  let token = target.sandbox.issueToken();
  const headers = (extra: Record<string, string> = {}): Record<string, string> => {
    if (b.tokenPerCall) token = target.sandbox.issueToken();
    return {
      authorization: `Bearer ${token.token}`,
      'x-service-tenant': token.tenant,
      ...(b.serviceVersion ? { 'service-version': CURRENT_VERSION } : {}),
      ...(b.origin ? { origin: b.origin } : {}),
      ...extra,
    };
  };
  async function once(method: string, path: string, body: unknown, key: string | undefined): Promise<Answer> {
    // Its timeout runs on the sandbox clock (clientTimer): a held call is given up at exactly timeoutMs.
    const gaveUp = new AbortController();
    try {
      const sent = target.fetch(`${target.baseUrl}/api/public/v1${path}`, {
        method,
        headers: headers({
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(key ? { 'idempotency-key': key } : {}),
        }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.any([gaveUp.signal, AbortSignal.timeout(30_000)]),
      });
      void clientTimer(target, b.timeoutMs, sent).then((timedOut) => timedOut && gaveUp.abort());
      const res = await sent;
      return { status: res.status, json: await res.json().catch(() => undefined), headers: res.headers };
    } catch {
      return { status: 0, json: undefined, headers: undefined };
    }
  }
  return {
    tenant: token.tenant,
    behaviour: b,
    /** One operation: up to maxAttempts attempts, one key for all of them unless newKeyPerAttempt. */
    async call(method: string, path: string, opts: { body?: unknown; key?: string | boolean } = {}): Promise<Answer> {
      let key = opts.key === true ? `op-${randomUUID()}` : opts.key || undefined;
      let answer: Answer | undefined;
      for (let n = 0; n < b.maxAttempts; n++) {
        if (n > 0 && key && b.newKeyPerAttempt) key = `op-${randomUUID()}`;
        answer = await once(method, path, opts.body, key);
        if (!b.retryOn(answer.status) || n + 1 === b.maxAttempts) return answer;
        const ra = Number(answer.headers?.get('retry-after') ?? 0) * 1000;
        // Its sleep is the sandbox clock moved on: the rules measure exactly the wait it chose.
        await sleepOn(target, b.waitMs(n, ra, b.random));
      }
      return answer!;
    },
    /**
     * Reads the tenant's stream until it ends (or `count` messages), reconnecting up to `reconnects`
     * times; `onOpen(i)` runs once connection i is open. Returns the message ids read.
     */
    async stream(opts: {
      reconnects: number;
      count: number;
      onOpen?: (i: number) => void;
      /** Control events (stream.reset, …) and refused reconnects (status) are noted here. */
      notes?: string[];
    }): Promise<number[]> {
      const ids: number[] = [];
      for (let i = 0; i <= opts.reconnects && ids.length < opts.count; i++) {
        const last = ids.at(-1);
        const res = await target.fetch(`${target.baseUrl}/api/public/v1/stream`, {
          headers: headers(b.resumeWithCursor && last !== undefined ? { 'last-event-id': String(last) } : {}),
        });
        if (res.status !== 200) {
          // The server is away (a restart): wait a little, as the stream's retry: hint says, and come back.
          opts.notes?.push(`status ${res.status}`);
          await res.body?.cancel().catch(() => undefined);
          await sleepOn(target, 300);
          continue;
        }
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        opts.onOpen?.(i);
        // A connection that brings nothing more for 2 s is given up (a client missing messages would wait
        // forever). Those 2 s pass on the sandbox clock (a stall shorter than that ends meanwhile); only
        // noticing the silence takes real time (QUIET_MS and a few event-loop turns, silence.ts), and
        // the end the clock brings gets as long again before the connection is dropped.
        const drop = silenceWatch(QUIET_MS, () => void reader.cancel().catch(() => undefined));
        const quiet = silenceWatch(QUIET_MS, () => void sleepOn(target, 2_000).then(() => drop.heard()));
        const giveUp = () => {
          drop.stop();
          quiet.heard();
        };
        let text = '';
        while (ids.length < opts.count) {
          giveUp();
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
          if (done) break;
          text += decoder.decode(value, { stream: true });
          for (let cut = text.indexOf('\n\n'); cut !== -1; cut = text.indexOf('\n\n')) {
            const block = text.slice(0, cut);
            const m = /^id: (\d+)/m.exec(block);
            if (m) ids.push(Number(m[1]));
            else if (/^event: /m.test(block)) opts.notes?.push(/^event: (.*)$/m.exec(block)![1]!);
            text = text.slice(cut + 2);
          }
        }
        quiet.stop();
        drop.stop();
        await reader.cancel().catch(() => undefined);
      }
      return ids;
    },
  };
}
