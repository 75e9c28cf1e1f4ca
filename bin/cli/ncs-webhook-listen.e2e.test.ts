import { spawn } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../simulator/app/serve.ts';
import { verifyWebhook } from '../../simulator/contract/webhook-signature.ts';
import { NCS_BIN } from '../../simulator/e2e/ready-file.ts';
import { ncs } from '../../simulator/e2e/cli-process.ts';

/**
 * Resolves once `done()` holds, checked as each emitter reports (a chunk of output, a forwarded
 * delivery), or after `ms` (the assertion after it then says what is missing).
 */
function settled(done: () => boolean, emitters: EventEmitter[], ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(finish, ms);
    // After the emitter's own listeners (they record what arrived) have run.
    const later = () => setImmediate(() => done() && finish());
    function finish() {
      clearTimeout(timer);
      for (const e of emitters) e.off('data', later).off('forwarded', later);
      resolve();
    }
    for (const e of emitters) e.on('data', later).on('forwarded', later);
    if (done()) finish();
  });
}

describe('ncs webhook listen and ncs token as processes', () => {
  let sim: RunningServer;
  const forwarded: { signature: string; body: string }[] = [];
  const app = createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    forwarded.push({ signature: String(req.headers['ncs-signature']), body });
    app.emit('forwarded');
    res.writeHead(200).end();
  });
  beforeAll(async () => {
    sim = await serve({ port: 0 });
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await new Promise((r) => app.close(r));
    await sim?.close();
  });
  const webhooks = () =>
    fetch(`${sim.baseUrl}/api/public/v1/webhooks`, {
      headers: { authorization: `Bearer ${sim.token}`, 'x-service-tenant': sim.tenant },
    }).then((r) => r.text());

  it('prints the signing secret the forwarded deliveries verify with, and deregisters its receiver on SIGINT', async () => {
    const target = `http://127.0.0.1:${(app.address() as AddressInfo).port}/hooks`;
    const child = spawn(
      process.execPath,
      [NCS_BIN, 'webhook', 'listen', '--events', 'order.paid', '--forward-to', target],
      {
        // The interface's base URL works as well as the origin.
        env: {
          PATH: process.env.PATH ?? '',
          NCS_BASE_URL: `${sim.baseUrl}/api/public/v1`,
          NCS_TOKEN: sim.token,
          NCS_TENANT: sim.tenant,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await settled(() => out.includes('signing secret'), [child.stdout], 10_000);
    const id = /as webhook (\S+) for order\.paid, forwarding to /.exec(out)?.[1];
    const secret = /^signing secret (whsec_\S+) \(header NCS-Signature\)$/m.exec(out)?.[1];
    expect([id, secret], out + err).toEqual([expect.stringMatching(/^wh_/), expect.any(String)]);
    expect(await webhooks()).toContain(id);

    sim.sandbox.control.trigger({ event: 'order.paid', tenant: sim.tenant });
    await settled(() => forwarded.length > 0, [app], 5000);
    expect(forwarded).toHaveLength(1);
    const [got] = forwarded;
    expect(verifyWebhook(got?.body ?? '', got?.signature, secret ?? '').ok).toBe(true);
    await settled(() => out.includes('signature valid'), [child.stdout], 2500);
    expect(out).toMatch(/order\.paid \S+ signature valid -> http:\/\/127\.0\.0\.1:\d+\/hooks 200\n/);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toContain(`removed webhook ${id}\n`);
    expect(await webhooks()).not.toContain(id);
  });

  it('ncs token honours NCS_BASE_URL, also ending in /api/public/v1', async () => {
    const res = await ncs(['token', '--client-id', 'catalog-reader'], {
      NCS_BASE_URL: `${sim.baseUrl}/api/public/v1/`,
      NCS_CLIENT_SECRET: 'cr-sandbox-secret-1a2b3c4d5e6f7081',
    });
    expect(res.status, res.stderr).toBe(0);
    const answer = await fetch(`${sim.baseUrl}/api/public/v1/providers`, {
      headers: { authorization: `Bearer ${res.stdout.trim()}`, 'x-service-tenant': sim.tenant },
    });
    expect(answer.status).toBe(200);
  });
});
