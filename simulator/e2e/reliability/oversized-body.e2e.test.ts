import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { request, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NCS_BIN as BIN, type ReadyInfo, waitForReadyFile } from '../ready-file.ts';

// A body over the limit is answered with the failure envelope whatever client sent it: the server
// reads and drops (bounded) what is still coming before it closes, so the close never resets a
// client that is still uploading before it has read the answer. The server runs in its own process:
// in one process with the client, the upload and the close never race the way they do for a user.
describe('a body over the limit, sent by undici to `ncs serve`', () => {
  let child: ChildProcess;
  let info: ReadyInfo;
  beforeAll(async () => {
    const ready = join(mkdtempSync(join(tmpdir(), 'ncs-big-body-')), 'ready.json');
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--ready-file', ready], {
      stdio: 'ignore',
    });
    info = await waitForReadyFile(ready);
  });
  afterAll(() => void child.kill('SIGKILL'));

  const headers = () => ({
    authorization: `Bearer ${info.token}`,
    'x-service-tenant': info.tenant,
    'content-type': 'application/json',
    'idempotency-key': `big-body-${Math.random().toString(36).slice(2)}`,
  });
  const outcome = (err: unknown) => {
    const e = err as Error & { code?: string; cause?: { code?: string } };
    return `error ${e.code ?? e.cause?.code ?? e.message}`;
  };

  it('20 MiB with its length (undici request and fetch) gets the 400 envelope every time, never a reset', async () => {
    const body = Buffer.alloc(20 * 1024 * 1024, 0x61);
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) {
      try {
        const res = await request(`${info.baseUrl}/api/public/v1/connections`, {
          method: 'POST',
          headers: headers(),
          body,
        });
        const json = (await res.body.json()) as { error: { code: string; detail?: string } };
        outcomes.push(
          `${res.statusCode} ${json.error.code} ${/larger than this deployment/.test(json.error.detail ?? '')}`,
        );
      } catch (err) {
        outcomes.push(outcome(err));
      }
      try {
        const res = await undiciFetch(`${info.baseUrl}/api/public/v1/connections`, {
          method: 'POST',
          headers: headers(),
          body,
        });
        const json = (await res.json()) as { error: { code: string; detail?: string } };
        outcomes.push(
          `${res.status} ${json.error.code} ${/larger than this deployment/.test(json.error.detail ?? '')}`,
        );
      } catch (err) {
        outcomes.push(outcome(err));
      }
    }
    expect(outcomes).toEqual(Array(10).fill('400 invalid_request true'));
  }, 60_000);

  it('20 MiB streamed without a length (chunked) gets the 400 envelope, never a reset', async () => {
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const body = Readable.from(
        (function* () {
          for (let n = 0; n < 80; n++) yield chunk;
        })(),
      );
      try {
        const res = await request(`${info.baseUrl}/api/public/v1/connections`, {
          method: 'POST',
          headers: headers(),
          body,
        });
        const json = (await res.body.json()) as { error: { code: string } };
        outcomes.push(`${res.statusCode} ${json.error.code}`);
      } catch (err) {
        outcomes.push(outcome(err));
      }
    }
    expect(outcomes).toEqual(Array(6).fill('400 invalid_request'));
  }, 60_000);

  it('a client that announces a huge body and then stalls is answered at once and closed soon after', async () => {
    const socket = connect(Number(new URL(info.baseUrl).port), '127.0.0.1');
    let text = '';
    let answeredAt = 0;
    socket.on('data', (d) => {
      text += d;
      answeredAt ||= Date.now();
    });
    socket.on('error', () => undefined);
    const closed = new Promise<number>((r) => socket.on('close', () => r(Date.now())));
    const started = Date.now();
    socket.write(
      `POST /api/public/v1/capabilities HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${info.token}\r\nx-service-tenant: ${info.tenant}\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{"a":`,
    );
    const closedAt = await closed;
    expect(answeredAt - started).toBeLessThan(1000);
    expect(closedAt - started).toBeLessThan(3000);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text).toContain('larger than this deployment accepts');
  });
});
