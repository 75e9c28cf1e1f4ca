import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { describe, expect, it, onTestFinished, type TestContext } from 'vitest';
import { NCS_BIN as BIN, type ReadyInfo, waitForReadyFile } from '../ready-file.ts';

// At SIGTERM, a keep-alive connection the client is about to reuse must not be cut under a request
// that is already on its way: the server answers it (Connection: close), then closes. Only once no
// request has come for a moment are idle connections closed. The server runs in its own process, as
// a supervisor would stop it.
async function startServer(ctx?: TestContext) {
  const ready = join(mkdtempSync(join(tmpdir(), 'ncs-term-ka-')), 'ready.json');
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--ready-file', ready], {
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // The test context's hook where the test may run at the same time as another.
  (ctx?.onTestFinished ?? onTestFinished)(() => void child.kill('SIGKILL'));
  const info: ReadyInfo = await waitForReadyFile(ready);
  return { child, exited, info };
}

/** A raw keep-alive connection: what it received, and whether it ended with a reset. */
function keepAlive(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  const state = { text: '', reset: false, closed: false };
  socket.on('data', (d) => (state.text += d.toString('latin1')));
  socket.on('error', (e: NodeJS.ErrnoException) => (state.reset ||= e.code === 'ECONNRESET' || e.code === 'EPIPE'));
  const closed = new Promise<void>((r) =>
    socket.on('close', () => {
      state.closed = true;
      r();
    }),
  );
  return { socket, state, closed };
}

/**
 * The server keeps idle connections open for its shutdown grace (500 ms) after SIGTERM: a request sent
 * within it is "on its way" and must be answered; one sent after it meets a connection the server was
 * free to close (HTTP/1.1 lets either side close an idle connection; clients retry). On a machine so
 * busy that this process itself is starved, a request meant for "right after SIGTERM" can leave later
 * than that: such a round cannot judge the rule, so it is run again (and, never on time, skipped with
 * the reason), rather than read as a reset.
 */
const ON_TIME_MS = 300;
const ROUNDS = 4;

const answers = (text: string) => text.match(/HTTP\/1\.1 \d{3}[\s\S]*?\r\n\r\n\{[\s\S]*?\}\}/g) ?? [];
const GET = 'GET /api/public/v1 HTTP/1.1\r\nHost: x\r\n\r\n';

describe('SIGTERM and keep-alive connections', () => {
  it('a request sent on 40 idle keep-alive connections right after SIGTERM is answered on each, then closed', async (ctx) => {
    for (let round = 1; round <= ROUNDS; round++) {
      const { child, exited, info } = await startServer();
      const port = Number(new URL(info.baseUrl).port);
      const conns = Array.from({ length: 40 }, () => keepAlive(port));
      for (const c of conns) c.socket.write(GET);
      // Every connection has had its first answer and is idle (kept alive).
      for (let i = 0; i < 400 && conns.some((c) => answers(c.state.text).length < 1); i++)
        await new Promise((r) => setTimeout(r, 10));
      expect(conns.map((c) => answers(c.state.text).length)).toEqual(Array(40).fill(1));
      const killed = performance.now();
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 1));
      for (const c of conns) c.socket.write(GET);
      const late = performance.now() - killed > ON_TIME_MS;
      await Promise.all(conns.map((c) => c.closed));
      expect(await exited).toBe(0);
      if (late && round < ROUNDS) continue;
      if (late)
        return ctx.skip(
          `this process was starved: its requests left over ${ON_TIME_MS} ms after SIGTERM in ${ROUNDS} rounds`,
        );
      const seen = conns.map((c) => {
        const [, second] = answers(c.state.text);
        if (c.state.reset) return 'reset';
        if (!second) return 'closed without an answer';
        // Answered, and the connection closed after (all are awaited closed above). The answer says
        // Connection: close when the listener had closed by then; during the few poll phases the
        // server still accepts queued connections, it does not (see node-server.ts close()).
        return /^HTTP\/1\.1 200 /.test(second) ? 'answered, then closed' : second.slice(0, 40);
      });
      expect(seen).toEqual(Array(40).fill('answered, then closed'));
      return;
    }
  }, 120_000);

  // A server that was busy (or starved of CPU) when SIGTERM came has connections queued in the kernel,
  // their requests sent: closing the listener at once resets every one of them. SIGSTOP makes that
  // state on purpose: 50 connections queue while the process is stopped, then SIGTERM and SIGCONT.
  it.skipIf(process.platform === 'win32')(
    'connections queued in the kernel when SIGTERM comes are accepted and answered, not reset',
    async () => {
      const { child, exited, info } = await startServer();
      const port = Number(new URL(info.baseUrl).port);
      child.kill('SIGSTOP');
      const conns = Array.from({ length: 50 }, () => keepAlive(port));
      await Promise.all(conns.map((c) => new Promise((r) => c.socket.once('connect', r))));
      for (const c of conns) c.socket.write(GET);
      child.kill('SIGTERM');
      child.kill('SIGCONT');
      await Promise.all(conns.map((c) => c.closed));
      const seen = conns.map((c) =>
        c.state.reset ? 'reset' : /^HTTP\/1\.1 200 /.test(c.state.text) ? 'answered' : 'closed without an answer',
      );
      expect(seen).toEqual(Array(50).fill('answered'));
      expect(await exited).toBe(0);
    },
    30_000,
  );

  // These two wait out the server's graces (timers, hardly any CPU): they run at the same time.
  it.concurrent('a connection opened before SIGTERM keeps its place past the grace: its first request, 1 s later, is answered', async (ctx) => {
    const { child, exited, info } = await startServer(ctx);
    const port = Number(new URL(info.baseUrl).port);
    const conns = Array.from({ length: 10 }, () => keepAlive(port));
    await Promise.all(conns.map((c) => new Promise((r) => c.socket.once('connect', r))));
    // Accepted by the server (it answers a request on another connection after they connected).
    await fetch(`${info.baseUrl}/api/public/v1`);
    child.kill('SIGTERM');
    // Past the 500 ms grace for idle connections that have served a request, within the 2 s for a first one.
    await new Promise((r) => setTimeout(r, 1_000));
    for (const c of conns) c.socket.write(GET);
    await Promise.all(conns.map((c) => c.closed));
    const seen = conns.map((c) =>
      c.state.reset
        ? 'reset'
        : /^HTTP\/1\.1 200 [\s\S]*\r\nconnection: close\r\n/i.test(answers(c.state.text)[0] ?? '')
          ? 'answered, close'
          : 'closed without an answer',
    );
    expect(seen).toEqual(Array(10).fill('answered, close'));
    expect(await exited).toBe(0);
  }, 30_000);

  it.concurrent('a connection that never sends a request is closed after the first-request grace, and the server exits 0', async (ctx) => {
    const { child, exited, info } = await startServer(ctx);
    const idle = keepAlive(Number(new URL(info.baseUrl).port));
    await new Promise((r) => idle.socket.once('connect', r));
    await fetch(`${info.baseUrl}/api/public/v1`);
    child.kill('SIGTERM');
    await idle.closed;
    expect(await exited).toBe(0);
    expect(idle.state.text).toBe('');
  }, 30_000);

  it('under a 32-worker POST load, SIGTERM resets no request: each is answered or its connection refused', async () => {
    const { child, exited, info } = await startServer();
    const agent = new Agent({ connections: 32, keepAliveTimeout: 10_000 });
    onTestFinished(() => agent.close());
    const outcomes = new Map<string, number>();
    let killed = Number.POSITIVE_INFINITY;
    const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    let stop = false;
    const body = JSON.stringify({ connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' });
    const worker = async () => {
      while (!stop) {
        const issued = performance.now();
        try {
          const res = await request(`${info.baseUrl}/api/public/v1/capabilities`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${info.token}`,
              'x-service-tenant': info.tenant,
              'content-type': 'application/json',
            },
            body,
            dispatcher: agent,
          });
          await res.body.text();
          count(String(res.statusCode === 200 || res.statusCode === 429 ? 'answered' : res.statusCode));
        } catch (err) {
          const e = err as Error & { code?: string; cause?: { code?: string } };
          const code =
            e.code === 'ECONNREFUSED' || e.cause?.code === 'ECONNREFUSED' ? 'refused' : (e.code ?? e.message);
          // A request issued well after SIGTERM met a connection the server was free to close (above).
          count(code !== 'refused' && issued - killed > ON_TIME_MS ? 'after the grace' : code);
          // The listener is gone: this worker is done.
          if (code === 'refused') return;
        }
      }
    };
    const workers = Array.from({ length: 32 }, worker);
    await new Promise((r) => setTimeout(r, 400));
    killed = performance.now();
    child.kill('SIGTERM');
    const code = await exited;
    stop = true;
    await Promise.all(workers);
    const resets = [...outcomes].filter(([k]) => k !== 'answered' && k !== 'refused' && k !== 'after the grace');
    expect(resets).toEqual([]);
    expect(outcomes.get('answered')).toBeGreaterThan(0);
    expect(code).toBe(0);
  }, 30_000);
});
