import { startKitReceiver, type ReceiverAnswer } from '../../conformance/client/webhook-receiver.ts';
import { DEFAULT_SIGNATURE_HEADER, verifyWebhook, type VerifyResult } from '../contract/webhook-signature.ts';

/** One call the test receiver got. */
export interface ReceivedCall {
  path: string;
  /** Names lower-cased. */
  headers: Record<string, string>;
  /** The raw body as text. */
  body: string;
  /** The signature check against the receiver's secret, when it was given one. */
  verified?: VerifyResult;
}

export interface TestReceiverOptions {
  /** Signing secret: /ok paths then verify the signature (204 or 400 with the reason). */
  secret?: string;
  /** The clock the signature's time window is judged by (default real time), in ms. */
  now?: () => number;
}

/**
 * The simulator's tests' webhook receiver: the kit's receiver (one receiver for tests, kit and
 * `ncs webhook listen`) with paths that choose the answer: /ok… (204, or the signature check with a
 * secret), /fail… (500), /status/<code>, /flaky/<n> (500 to the first n calls, then like /ok), /hang
 * (never answers), /reset (drops the connection), /redirect (302 to /ok); anything else 204.
 * @example const rx = await startTestReceiver({ secret }); const call = await rx.waitFor((c) => c.path === '/ok');
 */
export async function startTestReceiver(opts: TestReceiverOptions = {}) {
  const calls: ReceivedCall[] = [];
  const flaky = new Map<string, number>();
  const signed = (call: ReceivedCall): ReceiverAnswer =>
    call.verified === undefined || call.verified.ok
      ? 204
      : { status: 400, body: call.verified.ok ? '' : call.verified.reason };
  const receiver = await startKitReceiver(0, {
    respond: (d) => {
      const body = d.rawBody.toString('utf8');
      const verified =
        opts.secret === undefined
          ? undefined
          : verifyWebhook(d.rawBody, d.headers[DEFAULT_SIGNATURE_HEADER.toLowerCase()], opts.secret, {
              now: (opts.now?.() ?? Date.now()) / 1000,
            });
      const call: ReceivedCall = { path: d.path, headers: d.headers, body, ...(verified ? { verified } : {}) };
      calls.push(call);
      const path = d.path;
      if (path.startsWith('/fail')) return 500;
      if (path.startsWith('/status/')) return { status: Number(path.slice(8)), body: 'no' };
      if (path.startsWith('/flaky/')) {
        const seen = (flaky.get(path) ?? 0) + 1;
        flaky.set(path, seen);
        return seen <= Number(path.slice(7)) ? 500 : signed(call);
      }
      if (path === '/hang') return 'hang';
      if (path === '/reset') return 'reset';
      if (path === '/redirect') return { status: 302, headers: { location: '/ok' } };
      return path.startsWith('/ok') ? signed(call) : 204;
    },
  });
  return {
    url: (path: string) => `${receiver.origin}${path}`,
    calls,
    /** Resolves with the next call the receiver answers (or leaves hanging). */
    async nextCall(): Promise<ReceivedCall> {
      const n = calls.length;
      await receiver.waitFor(
        () => true,
        30_000,
        () => calls.length > n,
      );
      const call = calls[n];
      if (!call) throw new Error('no webhook call arrived within 30 s');
      return call;
    },
    /** Resolves with the first call (already answered or coming) that matches, or rejects after `ms`. */
    async waitFor(match: (c: ReceivedCall) => boolean, ms = 5000): Promise<ReceivedCall> {
      await receiver.waitFor(
        () => true,
        ms,
        () => calls.some(match),
      );
      const call = calls.find(match);
      if (!call) throw new Error('no matching webhook call arrived');
      return call;
    },
    close: () => receiver.close(),
  };
}
