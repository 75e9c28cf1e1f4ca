import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../simulator/app/serve.ts';
import { verifyWebhook } from '../../simulator/contract/webhook-signature.ts';
import { listenForWebhooks } from './webhook-relay.ts';

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

/** A local app that records what it is forwarded. */
async function app() {
  const forwarded: { headers: Record<string, unknown>; body: string }[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    forwarded.push({ headers: req.headers, body });
    res.writeHead(200).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, forwarded };
}

async function simulator(): Promise<RunningServer> {
  const sim = await serve({ port: 0 });
  closers.push(() => sim.close());
  return sim;
}

/** Polls until done (bounded): a delivery and the line printed once it is forwarded take longer on a loaded machine. */
const until = async (done: () => boolean) => {
  for (const end = Date.now() + 30_000; !done() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
};
/** The line printed once a delivery was forwarded (after the app answered, so after `forwarded` grew). */
const forwardedLine = (lines: string[]) => lines.some((l) => / -> http:\/\/127\.0\.0\.1:\d+\/hooks \d{3}$/.test(l));

describe('listenForWebhooks (ncs webhook listen)', () => {
  it('registers a receiver, prints the signing secret and each delivery, forwards it, and deregisters on close', async () => {
    const sim = await simulator();
    const target = await app();
    const lines: string[] = [];
    const listening = await listenForWebhooks({
      baseUrl: sim.baseUrl,
      token: sim.token,
      tenant: sim.tenant,
      events: ['order.paid'],
      forwardTo: target.url,
      print: (l) => lines.push(l),
    });
    sim.sandbox.control.trigger({ event: 'order.paid', tenant: sim.tenant });
    await until(() => target.forwarded.length > 0 && forwardedLine(lines));
    expect(target.forwarded).toHaveLength(1);
    const [got] = target.forwarded;
    expect(JSON.parse(got?.body ?? '')).toMatchObject({ type: 'order.paid', data: { currency: 'EUR' } });
    // The printed secret verifies what the app received.
    expect(lines[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/webhooks as webhook wh_/);
    expect(lines[1]).toBe(`signing secret ${listening.signingSecret} (header NCS-Signature)`);
    expect(verifyWebhook(got?.body ?? '', String(got?.headers['ncs-signature']), listening.signingSecret).ok).toBe(
      true,
    );
    expect(lines[2]).toMatch(/order\.paid .* signature valid -> http:\/\/127\.0\.0\.1:\d+\/hooks 200$/);
    const list = () =>
      fetch(`${sim.baseUrl}/api/public/v1/webhooks`, {
        headers: { authorization: `Bearer ${sim.token}`, 'x-service-tenant': sim.tenant },
      }).then((r) => r.text());
    expect(await list()).toContain(listening.webhookId);
    await listening.close();
    expect(lines.at(-1)).toBe(`removed webhook ${listening.webhookId}`);
    expect(await list()).not.toContain(listening.webhookId);
  });

  it('with --forward-secret re-signs what it forwards and prints no secret', async () => {
    const sim = await simulator();
    const target = await app();
    const lines: string[] = [];
    const listening = await listenForWebhooks({
      baseUrl: sim.baseUrl,
      token: sim.token,
      tenant: sim.tenant,
      forwardTo: target.url,
      forwardSecret: 'whsec_my_app_local',
      print: (l) => lines.push(l),
    });
    closers.push(() => listening.close());
    sim.sandbox.control.trigger({ event: 'order.created', tenant: sim.tenant });
    await until(() => target.forwarded.length > 0 && forwardedLine(lines));
    const [got] = target.forwarded;
    expect(verifyWebhook(got?.body ?? '', String(got?.headers['ncs-signature']), 'whsec_my_app_local').ok).toBe(true);
    expect(lines.join('\n')).not.toContain('whsec_');
  });
});
