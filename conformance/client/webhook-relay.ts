// What `ncs webhook listen` runs: a receiver on a running simulator that prints and forwards each
// delivery, like a partner's backend sees it while developing. The receiver is the kit's (one receiver
// for tests, the kit and this command); the registration is removed again on close. The CLI
// (bin/cli/commands/webhook-listen.ts) only wires commander to it.
import { randomUUID } from 'node:crypto';
import { WEBHOOK_EVENTS } from '../../simulator/contract/events.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { signWebhook, verifyWebhook } from '../../simulator/contract/webhook-signature.ts';
import { type ReceivedDelivery, startKitReceiver } from './webhook-receiver.ts';

export interface ListenOptions {
  baseUrl: string;
  token: string;
  tenant: string;
  events?: string[];
  /** Local URL each delivery is forwarded to (same body and headers). */
  forwardTo?: string;
  /** Re-sign what is forwarded with this secret (a stable one for the app) instead of the issued one. */
  forwardSecret?: string;
  /** Port of the local receiver on 127.0.0.1 (default: any free one). */
  port?: number;
  /**
   * Used for the calls to the simulator (registering and removing the receiver); default globalThis.fetch.
   * The CLI passes one that says "cannot reach <base URL>: <reason>" when nothing answers.
   */
  fetch?: typeof fetch;
  /** One line per delivery (default: stdout). */
  print?: (line: string) => void;
}

export interface Listening {
  webhookId: string;
  receiverUrl: string;
  /** The secret the forwarded deliveries are signed with: the issued one, or forwardSecret. */
  signingSecret: string;
  /** Stops the receiver and removes its registration (the simulator's DELETE /webhooks/{id}). */
  close(): Promise<void>;
}

const FORWARDED = ['content-type', 'ncs-event', 'ncs-delivery', 'ncs-attempt'];

/**
 * Registers a receiver on a running simulator, prints each delivery with its signature check, and
 * forwards it to a local URL.
 * @example
 * const l = await listenForWebhooks({ baseUrl, token, tenant, forwardTo: 'http://127.0.0.1:3000/hooks' });
 * // … deliveries are printed and forwarded …
 * await l.close(); // removes the registration
 */
export async function listenForWebhooks(opts: ListenOptions): Promise<Listening> {
  const doFetch = opts.fetch ?? globalThis.fetch;
  const print = opts.print ?? ((l: string) => process.stdout.write(`${l}\n`));
  const registration = { secret: '', header: 'ncs-signature' };
  const answer = async (d: ReceivedDelivery): Promise<number> => {
    const check = verifyWebhook(d.rawBody, d.headers[registration.header], registration.secret);
    let status = check.ok ? 204 : 400;
    let forwarded = '';
    if (opts.forwardTo && check.ok) {
      const headers: Record<string, string> = {};
      for (const h of FORWARDED) if (d.headers[h] !== undefined) headers[h] = d.headers[h];
      headers[registration.header] = opts.forwardSecret
        ? signWebhook(d.rawBody, opts.forwardSecret, Math.floor(Date.now() / 1000))
        : (d.headers[registration.header] ?? '');
      try {
        const out = await globalThis.fetch(opts.forwardTo, {
          method: 'POST',
          headers,
          body: new Uint8Array(d.rawBody),
        });
        status = out.status;
        forwarded = ` -> ${opts.forwardTo} ${out.status}`;
      } catch (err) {
        status = 502;
        forwarded = ` -> ${opts.forwardTo} failed (${(err as Error).message})`;
      }
    }
    const verdict = check.ok ? 'valid' : `INVALID (${check.reason})`;
    print(
      `${new Date().toISOString()} ${d.headers['ncs-event'] ?? '-'} ${d.headers['ncs-delivery'] ?? '-'} signature ${verdict}${forwarded}`,
    );
    return status;
  };
  const receiver = await startKitReceiver(opts.port ?? 0, { respond: answer, keep: 20 });
  const receiverUrl = `${receiver.origin}/webhooks`;
  const api = `${opts.baseUrl}${BASE_PATH}`;
  const headers = { authorization: `Bearer ${opts.token}`, 'x-service-tenant': opts.tenant };
  const events = opts.events ?? [...WEBHOOK_EVENTS];
  let registered: { id: string; signingSecret: string; signatureHeader: string };
  try {
    registered = await register(doFetch, api, headers, receiverUrl, events);
  } catch (err) {
    await receiver.close();
    throw err;
  }
  registration.secret = registered.signingSecret;
  registration.header = registered.signatureHeader.toLowerCase();
  const signingSecret = opts.forwardSecret ?? registered.signingSecret;
  print(
    `listening on ${receiverUrl} as webhook ${registered.id} for ${events.join(', ')}${opts.forwardTo ? `, forwarding to ${opts.forwardTo}` : ''}`,
  );
  // The app that receives the forwarded deliveries needs this secret to verify them; given with
  // --forward-secret it is the caller's own and not printed again.
  if (!opts.forwardSecret) print(`signing secret ${signingSecret} (header ${registered.signatureHeader})`);
  let closed: Promise<void> | undefined;
  return {
    webhookId: registered.id,
    receiverUrl,
    signingSecret,
    close: () => {
      closed ??= deregister(doFetch, api, headers, registered.id)
        .then(print)
        .finally(() => receiver.close());
      return closed;
    },
  };
}

type Headers = Record<string, string>;

async function register(doFetch: typeof fetch, api: string, headers: Headers, url: string, events: string[]) {
  const res = await doFetch(`${api}/webhooks`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': `ncs-listen-${randomUUID()}` },
    body: JSON.stringify({ url, events }),
  });
  const json = (await res.json().catch(() => undefined)) as
    | {
        ok?: boolean;
        data?: { id: string; signingSecret: string; signatureHeader: string };
        error?: { code: string; message: string };
      }
    | undefined;
  if (json?.ok && json.data) return json.data;
  if (res.status === 401)
    throw new Error(`credentials refused: ${api} answered 401 to the token (get a new one: ncs token)`);
  throw new Error(
    `registering the receiver failed: ${json?.error?.code ?? res.status} ${json?.error?.message ?? ''}`.trim(),
  );
}

/** Removes the registration; the line to print says whether that worked. */
async function deregister(doFetch: typeof fetch, api: string, headers: Headers, id: string): Promise<string> {
  try {
    const res = await doFetch(`${api}/webhooks/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      headers: { ...headers, 'idempotency-key': `ncs-unlisten-${randomUUID()}` },
    });
    return res.ok ? `removed webhook ${id}` : `could not remove webhook ${id}: the simulator answered ${res.status}`;
  } catch (err) {
    return `could not remove webhook ${id}: ${(err as Error).message}`;
  }
}
