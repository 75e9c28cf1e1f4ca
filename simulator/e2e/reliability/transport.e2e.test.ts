import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { serve } from '../../app/serve.ts';
import { NCS_BIN as BIN, waitForReadyFile } from '../ready-file.ts';

/** A raw client socket that records what it receives and when it closed (half-open when asked, like a client that never closes its side). */
async function rawSocket(baseUrl: string, allowHalfOpen = false) {
  const socket = connect({ port: Number(new URL(baseUrl).port), host: '127.0.0.1', allowHalfOpen });
  await new Promise<void>((r) => socket.once('connect', r));
  const state = { text: '', closed: false };
  socket.on('data', (c) => (state.text += c.toString('latin1')));
  socket.on('close', () => (state.closed = true));
  socket.on('error', () => {});
  onTestFinished(() => void socket.destroy());
  return { socket, state };
}

async function until(cond: () => boolean, ms: number) {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await sleep(10);
  return cond();
}

const responses = (text: string) => text.split(/(?=HTTP\/1\.1 \d{3})/).filter(Boolean);
const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;

describe('transport hardening', () => {
  it.each([
    ['headers that never end', 'GET /api/public/v1 HTTP/1.1\r\nHost: x\r\n'],
    ['a broken header line', 'GET /api/public/v1 HTTP/1.1\r\nHost: x\r\nBad header line\r\n'],
  ])('a socket that sent %s gets the 400 and is closed, even if the client never closes', async (_, partial) => {
    const s = await serve({ port: 0, limits: { headersTimeoutMs: 300, requestTimeoutMs: 1000 } });
    onTestFinished(() => s.close());
    // Half-open: like a hostile client, it keeps its side open after the server's answer.
    const { socket, state } = await rawSocket(s.baseUrl, true);
    socket.write(partial);
    const open = () => new Promise<number>((r) => s.server.getConnections((_, n) => r(n)));
    expect(await until(() => state.text.includes('}'), 4000)).toBe(true);
    let n = await open();
    for (let i = 0; i < 50 && n > 0; i++) {
      await sleep(20);
      n = await open();
    }
    expect(n).toBe(0);
    expect(state.text).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(state.text).toContain('"code":"invalid_request"');
  });

  it('a body announced far larger than accepted is refused at once, not after a timeout', async () => {
    const s = await serve({ port: 0 });
    onTestFinished(() => s.close());
    const { socket, state } = await rawSocket(s.baseUrl);
    const started = Date.now();
    socket.write(
      `POST /api/public/v1/connections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.token}\r\nx-service-tenant: ${s.tenant}\r\nIdempotency-Key: big-body-1\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{"a":`,
    );
    expect(await until(() => state.closed, 3000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(state.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(state.text).toContain('larger than this deployment accepts');
  });

  it('at shutdown, a request sent on an idle keep-alive connection is answered, then the connection is closed', async () => {
    const s = await serve({ port: 0 });
    const closed = { done: false };
    onTestFinished(() => s.close());
    const idle = await rawSocket(s.baseUrl);
    idle.socket.write(get('/api/public/v1'));
    expect(await until(() => responses(idle.state.text).length === 1 && idle.state.text.includes('}'), 2000)).toBe(
      true,
    );
    expect(idle.state.text).not.toMatch(/connection: close/i);
    // Shutdown starts, and in the same instant the client sends its next request on the idle connection.
    void s.close().then(() => (closed.done = true));
    idle.socket.write(get('/api/public/v1'));
    expect(await until(() => idle.state.closed, 3000)).toBe(true);
    const [, second] = responses(idle.state.text);
    expect(second).toMatch(/^HTTP\/1\.1 200 /);
    expect(await until(() => closed.done, 3000)).toBe(true);
  });

  it('once the listener is closed, answers say Connection: close', async () => {
    const s = await serve({ port: 0 });
    onTestFinished(() => s.close());
    // An idle keep-alive connection whose next request comes after the listener closed (within the grace).
    const slow = await rawSocket(s.baseUrl);
    slow.socket.write(get('/api/public/v1'));
    expect(await until(() => responses(slow.state.text).length === 1 && slow.state.text.includes('}'), 2000)).toBe(
      true,
    );
    void s.close();
    await new Promise((r) => setTimeout(r, 50));
    slow.socket.write(get('/api/public/v1'));
    expect(await until(() => slow.state.closed, 3000)).toBe(true);
    const [, second] = responses(slow.state.text);
    expect(second).toMatch(/^HTTP\/1\.1 200 /);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('SIGTERM right after the ready file appears shuts down cleanly (exit 0, not killed by the signal)', async () => {
    const ready = join(mkdtempSync(join(tmpdir(), 'ncs-early-term-')), 'ready.json');
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--ready-file', ready], {
      stdio: 'ignore',
    });
    onTestFinished(() => void child.kill('SIGKILL'));
    const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
      child.on('exit', (code, signal) => r({ code, signal })),
    );
    await waitForReadyFile(ready);
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
  });

  it('a request still running after the drain time is cut: said on stderr, exit code 1', async () => {
    const ready = join(mkdtempSync(join(tmpdir(), 'ncs-cut-')), 'ready.json');
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--ready-file', ready], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    onTestFinished(() => void child.kill('SIGKILL'));
    let stderr = '';
    child.stderr!.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const info = await waitForReadyFile(ready);
    await fetch(`${info.baseUrl}/_sandbox/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${info.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'latency', route: 'listProviders', latencyMs: 20_000 }),
    });
    const slow = fetch(`${info.baseUrl}/api/public/v1/providers`, {
      headers: { authorization: `Bearer ${info.token}`, 'x-service-tenant': info.tenant },
    }).catch(() => 'cut');
    await sleep(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(1);
    expect(stderr).toContain('still running after 5 s were cut off');
    expect(await slow).toBe('cut');
  });
});
