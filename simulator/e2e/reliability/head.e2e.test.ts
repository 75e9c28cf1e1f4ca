import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../app/serve.ts';
import { OAUTH_ROUTES } from '../../auth-server/routes.ts';
import { ROUTES } from '../../contract/route-table.ts';
import { CONTROL_ROUTES } from '../../control/routes.ts';

// Issue 23 item 17: HEAD answers as GET without a body on every GET route (`curl -I` must not say 404).
let s: RunningServer;
beforeAll(async () => {
  s = await serve({ port: 0, stream: { limits: { maxClientsPerFeed: 1 } } });
});
afterAll(() => s?.close());

const concrete = (path: string) => path.replace(/\{\w+\}/g, 'x');
const getPaths = [...ROUTES, ...CONTROL_ROUTES, ...OAUTH_ROUTES]
  .filter((r) => r.method === 'GET' && !/stream$/.test(r.path))
  .map((r) => concrete(r.path));

describe('HEAD', () => {
  it('answers every GET route like GET: same status and headers, no body, the GET length', async () => {
    expect(getPaths.length).toBeGreaterThan(10);
    const headers = {
      authorization: `Bearer ${s.token}`,
      'x-service-tenant': s.tenant,
    };
    for (const path of getPaths) {
      const auth = path.startsWith('/_sandbox') ? { authorization: `Bearer ${s.sandbox.adminToken}` } : headers;
      const get = await fetch(`${s.baseUrl}${path}`, { headers: auth, redirect: 'manual' });
      const body = new Uint8Array(await get.arrayBuffer());
      const head = await fetch(`${s.baseUrl}${path}`, { method: 'HEAD', headers: auth, redirect: 'manual' });
      expect(head.status, `HEAD ${path}`).toBe(get.status);
      expect(head.headers.get('content-type'), `HEAD ${path}`).toBe(get.headers.get('content-type'));
      expect((await head.arrayBuffer()).byteLength).toBe(0);
      // Bodies carry a fresh requestId and time, of the same length each time.
      if (get.status === 200) expect(Number(head.headers.get('content-length')), `HEAD ${path}`).toBe(body.length);
    }
  });

  it('answers the inspector page and the stream without opening a stream', async () => {
    const login = await fetch(s.inspectorUrl!, { method: 'HEAD', redirect: 'manual' });
    expect(login.status).toBe(303);
    expect((await fetch(`${s.baseUrl}/_sandbox/inspector/`, { method: 'HEAD' })).status).toBe(401);
    for (let i = 0; i < 3; i++) {
      const head = await fetch(`${s.baseUrl}/api/public/v1/stream`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toMatch(/^text\/event-stream/);
    }
    // The public feed admits one stream: the HEADs above took no place in it.
    const controller = new AbortController();
    const get = await fetch(`${s.baseUrl}/api/public/v1/stream`, { signal: controller.signal });
    expect(get.status).toBe(200);
    controller.abort();
  });
});
