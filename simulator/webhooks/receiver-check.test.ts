import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSignatureHeader } from '../contract/webhook-signature.ts';
import { runReceiverCheck } from './receiver-check.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A receiver answering each delivery with `answer(headers)` (or never, for 'hang'; closing the connection, for 'drop'). */
async function receiver(answer: (h: Record<string, string | string[] | undefined>) => number | 'hang' | 'drop') {
  const seen: { case: string; signature?: string }[] = [];
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const sig = req.headers['ncs-signature'];
      seen.push({
        case: String(req.headers['ncs-receiver-check']),
        ...(typeof sig === 'string' ? { signature: sig } : {}),
      });
      const a = answer(req.headers);
      if (a === 'drop') req.socket.destroy();
      else if (a !== 'hang') res.writeHead(a).end();
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/hook`, seen };
}

const check = (url: string, timeoutMs?: number, now?: () => number) =>
  runReceiverCheck({
    receiver: { id: 'wh_1', url, secret: 'whsec_test', tenant: 't1' },
    signatureHeader: 'NCS-Signature',
    fetch: globalThis.fetch,
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(now ? { now } : {}),
  });

describe('runReceiverCheck', () => {
  it('sends the eleven cases in order, skewed by 301 s and in upper-case hex where they say so', async () => {
    const rx = await receiver(() => 204);
    const now = Math.floor(Date.now() / 1000);
    const result = await check(rx.url);
    expect(rx.seen.map((s) => s.case)).toEqual(result.cases.map((c) => c.name));
    const t = (name: string) => parseSignatureHeader(rx.seen.find((s) => s.case === name)!.signature!)!.t;
    expect(t('timestamp-301s-old') - now).toBeLessThanOrEqual(-300);
    expect(t('timestamp-301s-ahead') - now).toBeGreaterThanOrEqual(300);
    expect(rx.seen.find((s) => s.case === 'uppercase-hex')?.signature).toMatch(/v1=[0-9A-F]{64}$/);
    expect(rx.seen.find((s) => s.case === 'header-missing')?.signature).toBeUndefined();
    expect(result.pass).toBe(false);
  });
  it('signs the ahead case more than 301 s past a clock read late in its second', async () => {
    const rx = await receiver(() => 204);
    const late = 1_800_000_000_999; // .999 into a second: 301 s from the whole second would be 300.001 s ahead
    await check(rx.url, undefined, () => late);
    const ahead = parseSignatureHeader(rx.seen.find((s) => s.case === 'timestamp-301s-ahead')!.signature!)!.t;
    expect(ahead - late / 1000).toBeGreaterThan(301);
  });
  it('passes a receiver that refuses the forged and stale deliveries by closing the connection unanswered', async () => {
    const accept = ['valid', 'valid-spaced', 'duplicate', 'out-of-order-later-first', 'out-of-order-earlier-second'];
    const dropping = await receiver((h) => (accept.includes(String(h['ncs-receiver-check'])) ? 204 : 'drop'));
    const result = await check(dropping.url);
    expect(result.cases.find((c) => c.name === 'tampered-body')).toMatchObject({ pass: true });
    expect(result.cases.find((c) => c.name === 'tampered-body')?.error).toMatch(/^network/);
    expect(result.pass).toBe(true);
  });
  it('fails a receiver that answers too late, and passes on an upper-case hex it accepts (advisory)', async () => {
    const slow = await receiver((h) => (h['ncs-receiver-check'] === 'valid' ? 'hang' : 400));
    const late = await check(slow.url, 300);
    expect(late.cases[0]).toMatchObject({ name: 'valid', pass: false, error: 'no answer within 300 ms' });
    server!.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const lenient = await receiver((h) => {
      const name = String(h['ncs-receiver-check']);
      return ['valid', 'valid-spaced', 'duplicate', 'uppercase-hex'].includes(name) || name.startsWith('out-of-order')
        ? 204
        : 401;
    });
    const result = await check(lenient.url);
    expect(result.cases.find((c) => c.name === 'uppercase-hex')).toMatchObject({ pass: false, advisory: true });
    expect(result.pass).toBe(true);
  });
  it('passes a receiver that refuses a duplicate and an older event (advisory), fails one refusing spaced JSON', async () => {
    const strict = await receiver((h) =>
      ['valid', 'valid-spaced', 'out-of-order-later-first'].includes(String(h['ncs-receiver-check'])) ? 204 : 409,
    );
    const result = await check(strict.url);
    expect(result.cases.filter((c) => !c.pass).map((c) => [c.name, c.advisory ?? false])).toEqual([
      ['duplicate', true],
      ['out-of-order-earlier-second', true],
    ]);
    expect(result.pass).toBe(true);
    server!.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const reparsing = await receiver((h) => (h['ncs-receiver-check'] === 'valid' ? 204 : 400));
    const failed = await check(reparsing.url);
    expect(failed.cases.filter((c) => !c.pass && !c.advisory).map((c) => c.name)).toEqual(['valid-spaced']);
    expect(failed.pass).toBe(false);
  });
});
