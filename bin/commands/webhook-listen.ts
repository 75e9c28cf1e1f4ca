// `ncs webhook listen`: a receiver on a running simulator that prints and forwards each delivery, like a
// partner's backend sees it while developing. The receiver is the kit's (one receiver for tests, the kit
// and this command); the registration is removed again when the command ends.
import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { startKitReceiver, type ReceivedDelivery } from '../../conformance/client/webhook-receiver.ts';
import { WEBHOOK_EVENTS } from '../../simulator/contract/events.ts';
import { signWebhook, verifyWebhook } from '../../simulator/contract/webhook-signature.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { baseUrlOf, reachingFetch, readReadyFile } from './target.ts';
import { portOption, UsageError } from './usage.ts';

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
 * @example const l = await listenForWebhooks({ baseUrl, token, tenant, forwardTo: 'http://127.0.0.1:3000/hooks' });
 */
export async function listenForWebhooks(opts: ListenOptions): Promise<Listening> {
  const doFetch = opts.fetch ?? reachingFetch(opts.baseUrl);
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
        const out = await (opts.fetch ?? globalThis.fetch)(opts.forwardTo, {
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

export interface ListenFlags {
  baseUrl?: string;
  token?: string;
  tenant?: string;
  readyFile?: string;
  events?: string;
  forwardTo?: string;
  forwardSecret?: string;
  port?: number;
}

/**
 * The listen options from flags, then a ready file, then NCS_BASE_URL / NCS_TOKEN / NCS_TENANT /
 * NCS_WEBHOOK_SECRET.
 * @example listenOptionsFrom({ readyFile: '/tmp/ncs.json', forwardTo: 'http://127.0.0.1:3000/hooks' })
 */
export function listenOptionsFrom(o: ListenFlags, env = process.env): ListenOptions {
  const ready = readReadyFile(o.readyFile);
  const token = o.token ?? ready.token ?? env.NCS_TOKEN;
  const tenant = o.tenant ?? ready.tenant ?? env.NCS_TENANT;
  if (!token || !tenant)
    throw new UsageError('webhook listen needs --token and --tenant (or --ready-file, NCS_TOKEN and NCS_TENANT)');
  if (o.forwardSecret !== undefined && !o.forwardTo) throw new UsageError('--forward-secret needs --forward-to');
  const forwardSecret = o.forwardSecret ?? env.NCS_WEBHOOK_SECRET;
  const options: ListenOptions = { baseUrl: baseUrlOf(o.baseUrl ?? ready.baseUrl, env), token, tenant };
  if (o.events)
    options.events = o.events
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
  if (o.forwardTo) options.forwardTo = forwardUrlOf(o.forwardTo);
  if (forwardSecret && o.forwardTo) options.forwardSecret = forwardSecret;
  if (o.port !== undefined) options.port = o.port;
  return options;
}

function forwardUrlOf(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // Reported below.
  }
  throw new UsageError(`--forward-to must be an absolute http(s) URL, not ${JSON.stringify(text.slice(0, 80))}`);
}

export function registerWebhookListen(webhook: Command): void {
  webhook
    .command('listen')
    .description('register a receiver on a running simulator, print each delivery and forward it to a local URL')
    .option('--base-url <url>', 'simulator base URL (env NCS_BASE_URL)')
    .option('--token <token>', 'bearer token (env NCS_TOKEN)')
    .option('--tenant <id>', 'tenant (env NCS_TENANT)')
    .option('--ready-file <path>', 'read base URL, token and tenant from ncs serve --ready-file')
    .option('--events <list>', 'comma-separated event names (default: all)')
    .option('--forward-to <url>', 'forward each delivery to this local URL')
    .option(
      '--forward-secret <secret>',
      're-sign forwarded deliveries with this secret instead of printing the issued one (env NCS_WEBHOOK_SECRET)',
    )
    .option('--port <port>', 'port of the local receiver (default: any free one)', portOption)
    .action(async (o: ListenFlags) => {
      const listening = await listenForWebhooks(listenOptionsFrom(o));
      // Ctrl-C or a supervisor's SIGTERM: remove the registration, then leave.
      const stop = () => {
        listening.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
