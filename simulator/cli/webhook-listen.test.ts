import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { serve } from '../app/serve.ts';
import { listenForWebhooks } from './webhook-listen.ts';

describe('ncs webhook listen', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of closers.reverse()) await c();
  });

  it('registers a receiver, prints each delivery with its signature check and forwards it', async () => {
    const sim = await serve({ port: 0 });
    closers.push(() => sim.close());
    const forwarded: { headers: Record<string, unknown>; body: string }[] = [];
    const app = createServer(async (req, res) => {
      let body = '';
      for await (const c of req) body += c;
      forwarded.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => app.close(() => r())));
    const lines: string[] = [];
    const listening = await listenForWebhooks({
      baseUrl: sim.baseUrl,
      token: sim.token,
      tenant: sim.tenant,
      events: ['order.paid'],
      forwardTo: `http://127.0.0.1:${(app.address() as AddressInfo).port}/hooks`,
      print: (l) => lines.push(l),
    });
    closers.push(() => listening.close());
    sim.sandbox.control.trigger({ event: 'order.paid', tenant: sim.tenant });
    for (let i = 0; i < 100 && forwarded.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(forwarded).toHaveLength(1);
    expect(JSON.parse(forwarded[0]!.body)).toMatchObject({ type: 'order.paid', data: { currency: 'EUR' } });
    expect(forwarded[0]!.headers['ncs-signature']).toMatch(/^t=\d+,v1=/);
    expect(lines[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/webhooks as webhook wh_/);
    expect(lines[1]).toMatch(/order\.paid .* signature valid -> http:\/\/127\.0\.0\.1:\d+\/hooks 200$/);
    expect(lines.join('\n')).not.toContain('whsec_');
  });
});
