import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../simulator/app/sandbox.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { callCore, pipeStream, writeLines } from './alt-upstream.ts';

const ORIGIN = 'http://127.0.0.1:4999';

describe('the alternative targets call the simulator core as its listener would', () => {
  let sandbox: Sandbox;
  let auth: Record<string, string>;
  beforeAll(async () => {
    sandbox = createSandbox({ baseUrl: ORIGIN });
    await sandbox.ready;
    const { token, tenant } = sandbox.issueToken();
    auth = { authorization: `Bearer ${token}`, 'x-service-tenant': tenant };
  });
  afterAll(() => sandbox.state.close());

  it('answers with the listener origin, a parsed query and the body as sent', async () => {
    // The OAuth issuer names the origin the call came in at, not the sandbox's configured one.
    const metadata = await callCore(sandbox.core, 'http://127.0.0.1:5999', {
      method: 'get',
      path: '/.well-known/oauth-authorization-server',
      search: new URLSearchParams(),
      headers: {},
    });
    expect(metadata.status).toBe(200);
    expect(JSON.parse(metadata.body ?? '')).toMatchObject({ issuer: 'http://127.0.0.1:5999' });
    // A repeated parameter reaches the core as a list: the simulator refuses it like over HTTP.
    const listed = await callCore(sandbox.core, ORIGIN, {
      method: 'GET',
      path: `${BASE_PATH}/providers`,
      search: new URLSearchParams('limit=1&limit=2'),
      headers: auth,
    });
    expect(listed.status).toBe(400);
    const created = await callCore(sandbox.core, ORIGIN, {
      method: 'POST',
      path: `${BASE_PATH}/idempotency-keys`,
      search: new URLSearchParams(),
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"operation":"connection.create"}',
    });
    expect(created.status).toBe(200);
    expect(JSON.parse(created.body ?? '')).toMatchObject({ ok: true, data: { operation: 'connection.create' } });
  });

  it('hands a body over the listener limit to the core as too large (400), never the body itself', async () => {
    const answer = await callCore(sandbox.core, ORIGIN, {
      method: 'POST',
      path: `${BASE_PATH}/idempotency-keys`,
      search: new URLSearchParams(),
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/larger than this deployment accepts/);
  });
});

describe('rewriting answers whole lines at a time', () => {
  let server: Server;
  let url = '';
  let stopped = false;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200);
      if (req.url === '/text') return writeLines(res, 'a\nb\npartial', (t) => t.toUpperCase().replaceAll('\n', '|\n'));
      // A stream whose chunks cut lines in two; the client leaves after the second message.
      pipeStream(
        {
          open(sink) {
            sink.write('data: o');
            sink.write('ne\n\ndata: two\n');
            sink.write('\n');
            return () => {
              stopped = true;
            };
          },
        },
        res,
        (t) => `[${t}]`,
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('rewrites a text answer by whole lines, then its partial last line', async () => {
    expect(await (await fetch(`${url}/text`)).text()).toBe('A|\nB|\nPARTIAL');
  });

  it('passes a stream on in whole lines and stops it when the client goes', async () => {
    const controller = new AbortController();
    const res = await fetch(`${url}/stream`, { signal: controller.signal });
    const reader = res.body?.getReader();
    if (!reader) throw new Error('the stream answered without a body');
    let text = '';
    while (!text.endsWith('[\n]')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await expect.poll(() => stopped).toBe(true);
    // The cut line waited for its end: no chunk of the answer holds half a line.
    expect(text).toBe('[data: one\n\ndata: two\n][\n]');
  });
});
