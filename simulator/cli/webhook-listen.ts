import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_EVENTS } from '../contract/events.ts';
import { verifyWebhook } from '../contract/webhook-signature.ts';
import { reachingFetch } from '../lib/reach.ts';

export interface ListenOptions {
  baseUrl: string;
  token: string;
  tenant: string;
  events?: string[];
  /** Local URL each delivery is forwarded to (same body and headers). */
  forwardTo?: string;
  /** Port of the local receiver on 127.0.0.1 (default: any free one). */
  port?: number;
  fetch?: typeof fetch;
  /** One line per delivery (default: stdout). */
  print?: (line: string) => void;
}

export interface Listening {
  webhookId: string;
  receiverUrl: string;
  close(): Promise<void>;
}

const FORWARDED = ['content-type', 'ncs-signature', 'ncs-event', 'ncs-delivery', 'ncs-attempt'];

/**
 * `ncs webhook listen`: registers a receiver on a running simulator, prints each delivery with its
 * signature check, and forwards it to a local URL, like a partner does while developing.
 * @example const l = await listenForWebhooks({ baseUrl, token, tenant, forwardTo: 'http://127.0.0.1:3000/hooks' });
 */
export async function listenForWebhooks(opts: ListenOptions): Promise<Listening> {
  const doFetch = opts.fetch ?? globalThis.fetch;
  const print = opts.print ?? ((l: string) => process.stdout.write(`${l}\n`));
  let secret = '';
  let signatureHeader = 'ncs-signature';
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const check = verifyWebhook(raw, req.headers[signatureHeader] as string | undefined, secret);
    let forwarded = '';
    let status = check.ok ? 204 : 400;
    if (opts.forwardTo && check.ok) {
      try {
        const headers = Object.fromEntries(
          FORWARDED.map((h) => [h, req.headers[h]]).filter(([, v]) => typeof v === 'string'),
        ) as Record<string, string>;
        const out = await doFetch(opts.forwardTo, { method: 'POST', headers, body: raw });
        status = out.status;
        forwarded = ` -> ${opts.forwardTo} ${out.status}`;
      } catch (err) {
        status = 502;
        forwarded = ` -> ${opts.forwardTo} failed (${(err as Error).message})`;
      }
    }
    print(
      `${new Date().toISOString()} ${header(req.headers, 'ncs-event')} ${header(req.headers, 'ncs-delivery')} signature ${check.ok ? 'valid' : `INVALID (${check.reason})`}${forwarded}`,
    );
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const base = opts.baseUrl.replace(/\/+$/, '');
  const res = await reachingFetch(doFetch, base)(`${base}/api/public/v1/webhooks`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${opts.token}`,
      'x-service-tenant': opts.tenant,
      'content-type': 'application/json',
      'idempotency-key': `ncs-listen-${randomUUID()}`,
    },
    body: JSON.stringify({ url: receiverUrl, events: opts.events ?? [...WEBHOOK_EVENTS] }),
  });
  const json = (await res.json()) as {
    ok: boolean;
    data?: { id: string; signingSecret: string; signatureHeader: string };
    error?: { code: string; message: string };
  };
  if (!json.ok || !json.data) {
    server.close();
    throw new Error(
      `registering the receiver failed: ${json.error?.code ?? res.status} ${json.error?.message ?? ''}`.trim(),
    );
  }
  secret = json.data.signingSecret;
  signatureHeader = json.data.signatureHeader.toLowerCase();
  print(
    `listening on ${receiverUrl} as webhook ${json.data.id} for ${(opts.events ?? WEBHOOK_EVENTS).join(', ')}${opts.forwardTo ? `, forwarding to ${opts.forwardTo}` : ''}`,
  );
  return {
    webhookId: json.data.id,
    receiverUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const header = (h: IncomingHttpHeaders, name: string) => (typeof h[name] === 'string' ? (h[name] as string) : '-');
