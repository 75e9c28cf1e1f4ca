import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../contract/webhook-signature.ts';
import { verifyAuditRange } from '../../contract/audit-verify.ts';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';
import { readStream } from './sse-reader.ts';
import { startTestReceiver } from '../test-receiver.ts';

let seq = 0;
const key = (label: string) => `wh-${label}-${Date.now().toString(36)}-${++seq}`;

export function webhookBehaviour(get: () => Target) {
  describe('webhooks, delivery log and audit log', () => {
    let receiver: Awaited<ReturnType<typeof startTestReceiver>>;
    beforeAll(async () => {
      receiver = await startTestReceiver();
    });
    afterAll(() => receiver.close());

    const register = async (api: ReturnType<typeof client>, path: string, events: string[]) => {
      const res = await api.call('POST', '/api/public/v1/webhooks', {
        body: { url: receiver.url(path), events },
        headers: { 'idempotency-key': key('reg') },
      });
      return { res, data: expectSuccess(res) as { id: string; signingSecret: string; signatureHeader: string } };
    };
    const createConnection = (api: ReturnType<typeof client>, label: string) =>
      api.call('POST', '/api/public/v1/connections', {
        body: {
          connectorId: 'tillcraft-pos-cloud',
          environment: 'sandbox',
          scopeLabel: label,
          capabilities: ['orders.read'],
        },
        headers: { 'idempotency-key': key('con') },
      });

    it('registers a receiver; the signing secret is shown exactly once', async () => {
      const api = client(get());
      const { res, data } = await register(api, '/ok/once', ['order.created', 'order.paid']);
      expect(data.signingSecret).toMatch(/^whsec_/);
      expect(data.signatureHeader).toBe('NCS-Signature');
      const list = expectSuccess(await api.call('GET', '/api/public/v1/webhooks'));
      const one = await api.call('GET', `/api/public/v1/webhooks/${data.id}`);
      for (const text of [JSON.stringify(list), one.text]) expect(text).not.toContain(data.signingSecret);
      expect(list.webhooks.map((w: { id: string }) => w.id)).toContain(data.id);
      expect(res.text).toContain(data.signingSecret);
    });

    it('refuses receiver URLs that are not absolute http(s), carry credentials or leave loopback', async () => {
      const api = client(get());
      const bad = async (url: string) =>
        expectFailure(
          await api.call('POST', '/api/public/v1/webhooks', {
            body: { url, events: ['order.paid'] },
            headers: { 'idempotency-key': key('bad') },
          }),
          'invalid_request',
        );
      await bad('ftp://127.0.0.1/x');
      await bad('/relative/path');
      expect((await bad('http://user:pw@127.0.0.1:9/x')).detail).toMatch(/credentials/);
      expect((await bad('https://hooks.partner.example/ncs')).hint).toMatch(/127\.0\.0\.0\/8/);
      expectFailure(
        await api.call('POST', '/api/public/v1/webhooks', {
          body: { url: receiver.url('/ok'), events: ['nope.event'] },
          headers: { 'idempotency-key': key('ev') },
        }),
        'invalid_request',
      );
      expectFailure(
        await api.call('POST', '/api/public/v1/webhooks', {
          body: { url: receiver.url('/ok'), events: ['order.paid'] },
        }),
        'idempotency_required',
      );
    });

    it('delivers signed events to the receiver; the exported verifier accepts them; the log records every attempt', async () => {
      const api = client(get());
      const { data: hook } = await register(api, '/ok/connections', ['connection.created']);
      const created = expectSuccess(await createConnection(api, 'Webhook venue'));
      const call = await receiver.waitFor((c) => c.path === '/ok/connections' && c.body.includes(created.id));
      const header = call.headers['ncs-signature'] as string;
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyWebhook(call.body, header, hook.signingSecret)).toMatchObject({ ok: true });
      expect(verifyWebhook(call.body, header, 'whsec_wrong')).toMatchObject({ ok: false, reason: 'mismatch' });
      expect(Math.abs(Number(/t=(\d+)/.exec(header)![1]) - Date.now() / 1000)).toBeLessThan(300);
      const body = JSON.parse(call.body);
      expect(body).toMatchObject({
        type: 'connection.created',
        tenant: 'harbour-kitchens',
        data: { connection: { id: created.id } },
      });
      expect(call.headers['ncs-event']).toBe('connection.created');
      await get().sandbox.state.dispatcher.settled();
      const log = expectSuccess(await api.call('GET', `/api/public/v1/webhooks/${hook.id}/deliveries`));
      expect(log.deliveries[0]).toMatchObject({
        eventType: 'connection.created',
        status: 'succeeded',
        attempts: [{ n: 1, status: 204 }],
      });
      expect(JSON.stringify(log)).not.toContain(hook.signingSecret);
    });

    it('retries a failing receiver with backoff, records each attempt, and redelivers on request', async () => {
      const t = get();
      const api = client(t);
      const { data: hook } = await register(api, '/flaky/2', ['order.paid']);
      t.sandbox.control.trigger({ event: 'order.paid', tenant: 'harbour-kitchens' });
      await receiver.waitFor(
        (c) => c.path === '/flaky/2' && receiver.calls.filter((x) => x.path === '/flaky/2').length >= 3,
      );
      await t.sandbox.state.dispatcher.settled();
      const log = expectSuccess(await api.call('GET', `/api/public/v1/webhooks/${hook.id}/deliveries`));
      const d = log.deliveries[0];
      expect(d.status).toBe('succeeded');
      expect(d.attempts.map((a: { status: number }) => a.status)).toEqual([500, 500, 204]);
      const before = receiver.calls.filter((c) => c.path === '/flaky/2').length;
      const again = await api.call('POST', `/api/public/v1/webhooks/${hook.id}/deliveries/${d.id}/redeliver`, {
        headers: { 'idempotency-key': key('redeliver') },
      });
      expectSuccess(again);
      await receiver.waitFor(() => receiver.calls.filter((c) => c.path === '/flaky/2').length > before);
      await t.sandbox.state.dispatcher.settled();
      const after = expectSuccess(await api.call('GET', `/api/public/v1/webhooks/${hook.id}/deliveries`)).deliveries[0];
      expect(after.attempts.length).toBe(4);
      expectFailure(
        await api.call('POST', `/api/public/v1/webhooks/${hook.id}/deliveries/dlv_missing/redeliver`, {
          headers: { 'idempotency-key': key('missing') },
        }),
        'not_found',
      );
    });

    it('a delivery that fails for good is reported on the tenant feed as webhook.delivery_failed', async () => {
      const t = get();
      const api = client(t);
      const { data: hook } = await register(api, '/fail/always', ['order.created']);
      const read = await readStream(t, {
        headers: { authorization: `Bearer ${api.token}`, 'x-service-tenant': api.tenant },
        // Until the failure arrives: another test's pending connection may turn active on this feed meanwhile.
        count: 10,
        until: (events) => events.some((e) => e.event === 'webhook.delivery_failed'),
        timeoutMs: 5000,
        during: async () => void t.sandbox.control.trigger({ event: 'order.created', tenant: 'harbour-kitchens' }),
      });
      const failed = read.events.find((e) => e.event === 'webhook.delivery_failed');
      expect(failed, read.raw).toBeDefined();
      expect(JSON.parse(failed!.data)).toMatchObject({
        webhookId: hook.id,
        eventType: 'order.created',
        error: 'http_500',
      });
    });

    it('the delivery log does not exist under Service-Version 2026-06-12', async () => {
      const api = client(get());
      const { data: hook } = await register(api, '/ok/versions', ['order.paid']);
      const old = await api.call('GET', `/api/public/v1/webhooks/${hook.id}/deliveries`, {
        headers: { 'service-version': '2026-06-12' },
      });
      expect(expectFailure(old, 'not_found').hint).toContain('2026-07-01');
      expect(old.json.meta.version).toBe('2026-06-12');
      expectSuccess(
        await api.call('GET', `/api/public/v1/webhooks/${hook.id}/deliveries`, {
          headers: { 'service-version': '2026-07-01' },
        }),
      );
    });

    it('the audit log lists the tenant changes newest first with a verifiable proof; tampering is detected', async () => {
      const api = client(get());
      const res = await createConnection(api, 'Audited venue');
      const created = expectSuccess(res);
      const log = expectSuccess(await api.call('GET', '/api/public/v1/audit-log?limit=5'));
      expect(log.count).toBe(log.entries.length);
      expect(log.entries.length).toBeLessThanOrEqual(5);
      const entry = log.entries.find((e: { target: string }) => e.target === `connection:${created.id}`);
      expect(entry).toMatchObject({
        action: 'connection.created',
        actor: 'harbour-backend',
        requestId: res.json.meta.requestId,
      });
      expect(log.entries[0].seq).toBeGreaterThan(log.entries.at(-1).seq);
      expect(verifyAuditRange(log.entries, log.proof)).toMatchObject({ ok: true });
      const tampered = structuredClone(log.entries);
      tampered[1].actor = 'someone-else';
      expect(verifyAuditRange(tampered, log.proof)).toMatchObject({ ok: false, seq: tampered[1].seq });
      expectFailure(await api.call('GET', '/api/public/v1/audit-log?limit=0'), 'invalid_request');
      expectFailure(await api.call('GET', '/api/public/v1/audit-log?limit=501'), 'invalid_request');
      const other = expectSuccess(
        await api.call('GET', '/api/public/v1/audit-log', {
          token: get().sandbox.issueToken('alpine-backend').token,
          tenant: 'alpine-bistro',
        }),
      );
      expect(JSON.stringify(other)).not.toContain(created.id);
    });
  });
}
