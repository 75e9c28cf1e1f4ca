import { fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '../../simulator/contract/webhook-signature.ts';
import { startKitReceiver } from './webhook-receiver.ts';

describe("the kit's webhook receiver", () => {
  it('listens on 127.0.0.1, answers 204 and keeps each request unchanged for verification', async () => {
    const receiver = await startKitReceiver();
    try {
      expect(receiver.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const body = '{"id":"evt_1","data":{"b":1,  "a":2}}';
      const header = signWebhook(body, 'whsec_x', 1_767_225_600);
      const waiting = receiver.waitFor((d) => d.path === '/hooks/one', 2000);
      const res = await fetch(`${receiver.origin}/hooks/one`, {
        method: 'POST',
        headers: { 'NCS-Signature': header, 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBe(204);
      const [d] = await waiting;
      expect(d!.method).toBe('POST');
      expect(d!.rawBody.toString('utf8')).toBe(body);
      expect(verifyWebhook(d!.rawBody, d!.headers['ncs-signature'], 'whsec_x', { now: 1_767_225_600 })).toEqual({
        ok: true,
        timestamp: 1_767_225_600,
      });
      expect(Math.abs(d!.receivedAt - Date.now())).toBeLessThan(5000);
    } finally {
      await receiver.close();
    }
  });

  it('waitFor resolves with the matches once there are enough, or with what there is when the time is up', async () => {
    const receiver = await startKitReceiver();
    try {
      const post = (path: string) => fetch(`${receiver.origin}${path}`, { method: 'POST', body: 'x' });
      await post('/a');
      expect((await receiver.waitFor((d) => d.path === '/a', 10)).length).toBe(1);
      const two = receiver.waitFor(
        (d) => d.path === '/a',
        2000,
        (m) => m.length >= 2,
      );
      await post('/b');
      await post('/a');
      expect((await two).length).toBe(2);
      expect(await receiver.waitFor((d) => d.path === '/never', 30)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('answers as respond decides (status, whole answer, reset, a failure as 500) and keeps only the newest', async () => {
    const receiver = await startKitReceiver(0, {
      keep: 2,
      respond: async (d) => {
        if (d.path === '/status/503') return 503;
        if (d.path === '/reset') return 'reset';
        if (d.path === '/throw') throw new Error('boom');
        return { status: 200, headers: { 'x-seen': d.rawBody.toString('utf8') }, body: 'thanks' };
      },
    });
    try {
      const post = (path: string) => fetch(`${receiver.origin}${path}`, { method: 'POST', body: 'x' });
      expect((await post('/status/503')).status).toBe(503);
      const whole = await post('/any');
      expect([whole.status, whole.headers.get('x-seen'), await whole.text()]).toEqual([200, 'x', 'thanks']);
      await expect(post('/reset')).rejects.toThrow();
      expect((await post('/throw')).status).toBe(500);
      expect(receiver.received.map((d) => d.path)).toEqual(['/reset', '/throw']);
    } finally {
      await receiver.close();
    }
  });

  it('stays bounded under a flood: the newest requests by count and bytes, bodies cut, and counts what it dropped', async () => {
    const receiver = await startKitReceiver(0, { maxBodies: 5, maxBytes: 3 * 1024 * 1024 });
    try {
      for (let i = 0; i < 12; i++) await fetch(`${receiver.origin}/flood/${i}`, { method: 'POST', body: `{"n":${i}}` });
      expect(receiver.received.map((d) => d.path)).toEqual([7, 8, 9, 10, 11].map((i) => `/flood/${i}`));
      expect(receiver.stats).toEqual({ dropped: 7, cut: 0 });
      const big = 'x'.repeat(1536 * 1024);
      for (let i = 0; i < 3; i++) await fetch(`${receiver.origin}/big/${i}`, { method: 'POST', body: big });
      const kept = receiver.received.filter((d) => d.path.startsWith('/big/'));
      // Each body is cut at 1 MiB; the oldest requests go so that all kept stay within 3 MiB.
      expect(kept.every((d) => d.truncated === true && d.rawBody.length === 1024 * 1024)).toBe(true);
      expect(receiver.stats.cut).toBe(3);
      expect(receiver.received.reduce((n, d) => n + d.rawBody.length, 0)).toBeLessThanOrEqual(3 * 1024 * 1024);
    } finally {
      await receiver.close();
    }
  });

  it('ends a delivery wait when the signal fires, with what arrived', async () => {
    const receiver = await startKitReceiver();
    try {
      const stop = new AbortController();
      const waiting = receiver.waitFor(() => true, 60_000, undefined, stop.signal);
      stop.abort();
      expect(await waiting).toEqual([]);
      expect(await receiver.waitFor(() => true, 60_000, undefined, stop.signal)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
