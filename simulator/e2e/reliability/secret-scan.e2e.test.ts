import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../../conformance/index.ts';
import { serve, type RunningServer } from '../../app/serve.ts';
import { requestToken } from '../../auth-server/token-client.ts';
import { startTestReceiver } from '../test-receiver.ts';

interface Seen {
  where: string;
  text: string;
  /** A response allowed to reveal a secret once: the token endpoint, the receiver creation. */
  reveal: boolean;
}

/**
 * Runs a broad session (OAuth, every route through the conformance kit, webhooks and deliveries,
 * bad credentials) and scans every response body and header, every delivery and every log line for
 * a bearer token, client secret, admin token or signing secret.
 */
describe('secret scan of a whole session', () => {
  let s: RunningServer;
  let receiver: Awaited<ReturnType<typeof startTestReceiver>>;
  const logs: string[] = [];
  const seen: Seen[] = [];
  const secrets = new Set<string>();
  const recordingFetch: typeof fetch = async (input, init) => {
    const res = await globalThis.fetch(input, init);
    const url = String(input instanceof Request ? input.url : input);
    const headers = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
    const sse = res.headers.get('content-type')?.startsWith('text/event-stream');
    const body = sse ? '' : await res.clone().text();
    const reveal = /\/oauth\/token$/.test(url) || (/\/api\/public\/v1\/webhooks$/.test(url) && init?.method === 'POST');
    seen.push({ where: `${init?.method ?? 'GET'} ${url}`, text: `${headers}\n${body}`, reveal });
    for (const m of body.matchAll(/"(?:access_token|refresh_token|signingSecret)":"([^"]+)"/g)) secrets.add(m[1]!);
    return res;
  };

  beforeAll(async () => {
    s = await serve({
      port: 0,
      altPort: 0,
      log: (l) => logs.push(l),
      onError: (e) => logs.push(String((e as Error)?.stack ?? e)),
    });
    receiver = await startTestReceiver();
    secrets.add(s.token);
    secrets.add(s.sandbox.adminToken);
    const fixtures = JSON.parse(
      readFileSync(new URL('../../../fixtures/hospitality.json', import.meta.url), 'utf8'),
    ) as { clients: { secret?: string }[] };
    for (const c of fixtures.clients) if (c.secret) secrets.add(c.secret);
  });
  afterAll(async () => {
    await receiver.close();
    await s.close();
  });

  it('finds no secret outside its one-time reveal', async () => {
    const token = await requestToken({
      baseUrl: s.baseUrl,
      clientId: 'harbour-backend',
      clientSecret: 'hk-sandbox-secret-5f2c9a7e1b3d4c60',
      fetch: recordingFetch,
    });
    secrets.add(token);
    await requestToken({
      baseUrl: s.baseUrl,
      clientId: 'harbour-backend',
      clientSecret: 'wrong-secret-value-123456',
      fetch: recordingFetch,
    }).catch(() => undefined);
    const auth = {
      authorization: `Bearer ${token}`,
      'x-service-tenant': 'harbour-kitchens',
      'content-type': 'application/json',
    };
    await recordingFetch(`${s.baseUrl}/api/public/v1/webhooks`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': 'scan-hook-1' },
      body: JSON.stringify({ url: receiver.url('/ok'), events: ['order.paid', 'connection.created'] }),
    });
    s.sandbox.control.trigger({ event: 'order.paid', tenant: 'harbour-kitchens' });
    await recordingFetch(`${s.baseUrl}/api/public/v1/providers`, {
      headers: { ...auth, authorization: `Bearer ${token}x` },
    });
    await recordingFetch(`${s.baseUrl}/_sandbox`, { headers: { authorization: `Bearer ${s.sandbox.adminToken}x` } });
    const run = await runConformance({
      baseUrl: s.baseUrl,
      altBaseUrl: s.altBaseUrl!,
      tenant: 'harbour-kitchens',
      token,
      fetch: recordingFetch as never,
      retry: false,
    });
    expect(run.exitCode).toBe(0);
    await s.sandbox.state.dispatcher.settled();
    expect(receiver.calls.length).toBeGreaterThan(0);
    const places: Seen[] = [
      ...seen,
      ...receiver.calls.map((c) => ({
        where: `delivery ${c.path}`,
        text: `${JSON.stringify(c.headers)}\n${c.body}`,
        reveal: false,
      })),
      ...logs.map((l, i) => ({ where: `log line ${i}`, text: l, reveal: false })),
    ];
    expect(secrets.size).toBeGreaterThan(10);
    expect(seen.length).toBeGreaterThan(50);
    const leaks = places
      .filter((p) => !p.reveal)
      .flatMap((p) => [...secrets].filter((x) => p.text.includes(x)).map((x) => `${p.where} shows ${x.slice(0, 8)}…`));
    expect(leaks).toEqual([]);
    console.log(
      `secret scan: ${places.length} responses, deliveries and log lines checked for ${secrets.size} secrets`,
    );
  }, 60_000);
});
