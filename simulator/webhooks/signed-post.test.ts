import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createManualScheduler } from '../lib/scheduler.ts';
import { verifyWebhook } from '../contract/webhook-signature.ts';
import { postSigned, type SignedPost } from './signed-post.ts';

const T0 = Date.UTC(2026, 6, 1);
function req(over: Partial<SignedPost>): SignedPost {
  const clock = createClock(() => T0);
  return {
    url: 'http://127.0.0.1:9/hook',
    body: '{"id":"evt_1"}',
    secret: 'whsec_p',
    signatureHeader: 'X-Sig',
    headers: { 'NCS-Event': 'x' },
    timeoutMs: 5_000,
    fetch: globalThis.fetch,
    clock,
    scheduler: createManualScheduler(clock),
    ...over,
  };
}

describe('postSigned', () => {
  it('sends the body unchanged with the signature under the configured header, no redirects followed', async () => {
    let seen: { init?: RequestInit; url?: string } = {};
    const fetch = (async (url: string, init: RequestInit) => {
      seen = { url, init };
      return new Response(null, { status: 308, headers: { location: '/elsewhere' } });
    }) as unknown as typeof globalThis.fetch;
    const outcome = await postSigned(req({ fetch })).done;
    const headers = seen.init!.headers as Record<string, string>;
    expect(seen.init).toMatchObject({ method: 'POST', body: '{"id":"evt_1"}', redirect: 'manual' });
    expect(headers['content-type']).toBe('application/json');
    expect(headers['NCS-Event']).toBe('x');
    expect(verifyWebhook('{"id":"evt_1"}', headers['X-Sig'], 'whsec_p', { now: T0 / 1000 }).ok).toBe(true);
    expect(outcome).toEqual({
      ok: false,
      status: 308,
      error: 'redirect_not_followed',
      startedAt: T0,
      durationMs: 0,
      signature: headers['X-Sig'],
    });
  });

  it('names a refused connection and an abort', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    await new Promise<void>((r) => srv.close(() => r()));
    expect((await postSigned(req({ url: `http://127.0.0.1:${port}/` })).done).error).toBe('network: ECONNREFUSED');
    const abortable = ((_url: string, init: RequestInit) =>
      new Promise((_, reject) =>
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason)),
      )) as unknown as typeof globalThis.fetch;
    const hanging = postSigned(req({ fetch: abortable }));
    hanging.abort('shutdown');
    expect(await hanging.done).toMatchObject({ ok: false, error: 'shutdown' });
  });

  it('signs with the signer it is given (the self-test breaks signatures this way)', async () => {
    let header = '';
    const fetch = (async (_url: string, init: RequestInit) => {
      header = (init.headers as Record<string, string>)['X-Sig']!;
      return new Response(null, { status: 204 });
    }) as unknown as typeof globalThis.fetch;
    const outcome = await postSigned(req({ fetch, sign: (body, secret, t) => `t=${t},v1=${body.length}${secret}` }))
      .done;
    expect(header).toBe(`t=${T0 / 1000},v1=14whsec_p`);
    expect(outcome.ok).toBe(true);
  });
});
