import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../contract/webhook-signature.ts';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';
import { startTestReceiver } from '../test-receiver.ts';
import { readStream } from './sse-reader.ts';

let seq = 0;
const key = (label: string) => `ta-${label}-${Date.now().toString(36)}-${++seq}`;
const isChangeOf = (e: { event?: string; data: string }, id: string | undefined) =>
  e.event === 'connection.state_changed' && id !== undefined && JSON.parse(e.data).connection?.id === id;
const headersOf = (token: string, tenant: string) => ({ authorization: `Bearer ${token}`, 'x-service-tenant': tenant });

/** Lifecycle events on time with no request needed, and streams that end with their token's access. */
export function timingAndAccessBehaviour(get: () => Target) {
  describe('lifecycle on time; streams end with their access', () => {
    let receiver: Awaited<ReturnType<typeof startTestReceiver>>;
    beforeAll(async () => {
      receiver = await startTestReceiver();
    });
    afterAll(() => receiver.close());

    const create = (api: ReturnType<typeof client>, label: string) =>
      api.call('POST', '/api/public/v1/connections', {
        body: {
          connectorId: 'tillcraft-pos-cloud',
          environment: 'sandbox',
          scopeLabel: label,
          capabilities: ['orders.read'],
        },
        headers: { 'idempotency-key': key('con') },
      });

    it('a pending connection turns active at its due time with no request: stream message and webhook on time', async () => {
      const t = get();
      const api = client(t);
      const label = key('on-time');
      const hook = expectSuccess(
        await api.call('POST', '/api/public/v1/webhooks', {
          body: { url: receiver.url(`/ok/${label}`), events: ['connection.state_changed'] },
          headers: { 'idempotency-key': key('reg') },
        }),
      );
      let created: { id: string; createdAt: string } | undefined;
      let createdAtReal = 0;
      const delay = t.sandbox.state.activationDelayMs;
      const read = await readStream(t, {
        headers: headersOf(api.token, api.tenant),
        count: 1000,
        until: (events) => events.some((e) => isChangeOf(e, created?.id)),
        timeoutMs: delay + 4000,
        during: async () => {
          created = expectSuccess(await create(api, label));
          createdAtReal = Date.now();
        },
      });
      const arrivedAfter = Date.now() - createdAtReal;
      const changed = read.events.find((e) => isChangeOf(e, created?.id));
      expect(changed, read.raw).toBeDefined();
      const data = JSON.parse(changed!.data);
      expect(data.connection).toMatchObject({ id: created!.id, state: 'active' });
      expect(Date.parse(data.connection.updatedAt)).toBe(Date.parse(created!.createdAt) + delay);
      expect(arrivedAfter).toBeLessThan(delay + 2500);
      const call = await receiver.waitFor((c) => c.path === `/ok/${label}`, 2000);
      expect(JSON.parse(call.body).data.connection.id).toBe(created!.id);
      await api.call('DELETE', `/api/public/v1/webhooks/${hook.id}`);
    });

    it('advancing the sandbox clock fires the transitions that fall due at once', async () => {
      const t = get();
      const api = client(t);
      let created: { id: string; createdAt: string } | undefined;
      try {
        const read = await readStream(t, {
          headers: headersOf(api.token, api.tenant),
          count: 1000,
          until: (events) => events.some((e) => isChangeOf(e, created?.id)),
          timeoutMs: 1000,
          during: async () => {
            created = expectSuccess(await create(api, key('advance')));
            t.sandbox.control.advanceClock(t.sandbox.state.activationDelayMs / 1000 + 60);
          },
        });
        const changed = read.events.find((e) => isChangeOf(e, created?.id));
        expect(changed, read.raw).toBeDefined();
        const connection = JSON.parse(changed!.data).connection;
        expect(connection.id).toBe(created!.id);
        expect(Date.parse(connection.updatedAt)).toBe(
          Date.parse(created!.createdAt) + t.sandbox.state.activationDelayMs,
        );
      } finally {
        t.sandbox.state.clock.reset();
      }
    });

    it('a stream ends when its token is revoked; a reconnect with the token gets 401', async () => {
      const t = get();
      const { token, tenant } = t.sandbox.issueToken();
      const read = await readStream(t, {
        headers: headersOf(token, tenant),
        count: 5,
        timeoutMs: 3000,
        during: async () => {
          t.sandbox.state.tokens.revoke(token);
        },
      });
      const last = read.events.at(-1);
      expect(last?.event, read.raw).toBe('stream.closed');
      expect(JSON.parse(last!.data)).toMatchObject({ reason: 'token_revoked' });
      expect(read.events.length).toBeLessThan(5); // ended by the server, not by the reader's timeout
      const again = await readStream(t, { headers: headersOf(token, tenant), count: 1 });
      expect(again.status).toBe(401);
    });

    it('a stream ends when its token expires on the sandbox clock; a reconnect gets 401', async () => {
      const t = get();
      const { token, tenant } = t.sandbox.issueToken(undefined, 60);
      try {
        const read = await readStream(t, {
          headers: headersOf(token, tenant),
          count: 5,
          timeoutMs: 3000,
          during: async () => {
            t.sandbox.control.advanceClock(61);
          },
        });
        expect(read.events.at(-1)?.event, read.raw).toBe('stream.closed');
        expect(JSON.parse(read.events.at(-1)!.data)).toMatchObject({ reason: 'token_expired' });
        const again = await readStream(t, { headers: headersOf(token, tenant), count: 1 });
        expect(again.status).toBe(401);
        expectFailure({ ...again, json: again.json, text: again.raw, headers: again.headers }, 'unauthorized');
      } finally {
        t.sandbox.state.clock.reset();
      }
    });

    it('webhook signatures carry real time even after the sandbox clock moved; stale/future signatures are a fault', async () => {
      const t = get();
      const api = client(t);
      const label = key('sig');
      const hook = expectSuccess(
        await api.call('POST', '/api/public/v1/webhooks', {
          body: { url: receiver.url(`/ok/${label}`), events: ['order.paid'] },
          headers: { 'idempotency-key': key('reg') },
        }),
      ) as { id: string; signingSecret: string; signatureHeader: string };
      const deliver = async () => {
        const { deliveries } = await t.sandbox.control.trigger({ event: 'order.paid', tenant: api.tenant });
        // Other tests' receivers may be subscribed too: wait for the delivery to this one.
        const call = await receiver.waitFor(
          (c) => c.path === `/ok/${label}` && deliveries.includes(String(c.headers['ncs-delivery'])),
          3000,
        );
        // The receiver's own clock: real time, as any partner's server has.
        return verifyWebhook(call.body, String(call.headers[hook.signatureHeader.toLowerCase()]), hook.signingSecret);
      };
      try {
        t.sandbox.control.advanceClock(3600);
        expect(await deliver()).toMatchObject({ ok: true });
        t.sandbox.control.addFault({ kind: 'stale_signature', webhookId: hook.id });
        expect(await deliver()).toEqual({ ok: false, reason: 'stale' });
        t.sandbox.control.addFault({ kind: 'future_signature', skewSeconds: 900, webhookId: hook.id });
        expect(await deliver()).toEqual({ ok: false, reason: 'future' });
        expect(await deliver()).toMatchObject({ ok: true });
        expect(t.sandbox.control.listFaults()).toEqual([]);
      } finally {
        t.sandbox.state.clock.reset();
        await api.call('DELETE', `/api/public/v1/webhooks/${hook.id}`);
      }
    });
  });
}
