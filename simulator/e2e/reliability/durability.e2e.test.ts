import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NCS_BIN as BIN, waitForReadyFile } from '../ready-file.ts';

async function start(
  dataDir: string,
  ready: string,
): Promise<{ child: ChildProcess; info: { baseUrl: string; token: string; tenant: string } }> {
  rmSync(ready, { force: true });
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--quiet', '--data-dir', dataDir, '--ready-file', ready, '--rate-limit', 'off'],
    { stdio: 'ignore' },
  );
  return { child, info: await waitForReadyFile(ready) };
}

interface Ack {
  key: string;
  body: string;
  status: number;
  data: unknown;
}

describe('durability with --data-dir', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ncs-durable-'));
  const children: ChildProcess[] = [];
  afterAll(() =>
    children.forEach((c) => {
      c.kill('SIGKILL');
    }),
  );

  it('kill -9 during a write load loses no acknowledged write, and replays stay identical', async () => {
    const ready = join(dir, 'ready.json');
    const first = await start(join(dir, 'data'), ready);
    children.push(first.child);
    const acks: Ack[] = [];
    let enough: () => void = () => {};
    // Resolved by the workers at the 300th acknowledged write (no polling).
    const threeHundred = new Promise<void>((resolve) => (enough = resolve));
    let n = 0;
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const key = `durable-key-${++n}`;
        const body = JSON.stringify({
          connectorId: 'tillcraft-pos-cloud',
          environment: 'sandbox',
          scopeLabel: `Durable venue ${n}`,
          capabilities: ['orders.read'],
        });
        try {
          const res = await fetch(`${first.info.baseUrl}/api/public/v1/connections`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${first.info.token}`,
              'x-service-tenant': first.info.tenant,
              'content-type': 'application/json',
              'idempotency-key': key,
            },
            body,
          });
          const json = (await res.json()) as { data: unknown };
          if (res.status === 200) acks.push({ key, body, status: res.status, data: json.data });
          if (acks.length >= 300) enough();
        } catch {
          return; // the server died under us: that write was never acknowledged
        }
      }
    };
    // Something of every durable kind before the crash: a receiver, audit entries, stream messages.
    const auth = {
      authorization: `Bearer ${first.info.token}`,
      'x-service-tenant': first.info.tenant,
      'content-type': 'application/json',
    };
    const hook = (await (
      await fetch(`${first.info.baseUrl}/api/public/v1/webhooks`, {
        method: 'POST',
        headers: { ...auth, 'idempotency-key': 'durable-webhook-1' },
        body: JSON.stringify({ url: 'http://127.0.0.1:9/never', events: ['order.paid'] }),
      })
    ).json()) as { data: { id: string } };
    const workers = Array.from({ length: 16 }, worker);
    await threeHundred;
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    expect(acks.length).toBeGreaterThanOrEqual(300);

    const second = await start(join(dir, 'data'), ready);
    children.push(second.child);
    const headers = {
      authorization: `Bearer ${second.info.token}`,
      'x-service-tenant': second.info.tenant,
      'content-type': 'application/json',
    };
    const list = (await (await fetch(`${second.info.baseUrl}/api/public/v1/connections`, { headers })).json()) as {
      data: { connections: { id: string }[] };
    };
    const ids = new Set(list.data.connections.map((c) => c.id));
    for (const ack of acks) expect(ids.has((ack.data as { id: string }).id), ack.key).toBe(true);
    // Every acknowledged key replays the identical response after the restart.
    for (const ack of acks.slice(-50)) {
      const res = await fetch(`${second.info.baseUrl}/api/public/v1/connections`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': ack.key },
        body: ack.body,
      });
      const json = (await res.json()) as { data: unknown; meta: { replayed?: boolean } };
      expect(res.status).toBe(ack.status);
      expect(json.data).toEqual(ack.data);
      expect(json.meta.replayed).toBe(true);
    }
    // Receivers, the audit chain and the stream numbering survive too.
    const hooks = (await (await fetch(`${second.info.baseUrl}/api/public/v1/webhooks`, { headers })).json()) as {
      data: { webhooks: { id: string }[] };
    };
    expect(hooks.data.webhooks.map((w) => w.id)).toContain(hook.data.id);
    const audit = (await (
      await fetch(`${second.info.baseUrl}/api/public/v1/audit-log?limit=500`, { headers })
    ).json()) as { data: { entries: unknown[]; proof: unknown } };
    const { verifyAuditRange } = await import('../../contract/audit-verify.ts');
    expect(verifyAuditRange(audit.data.entries, audit.data.proof)).toMatchObject({ ok: true });
    expect(audit.data.entries.length).toBeGreaterThanOrEqual(Math.min(500, acks.length + 1));
    const stream = await fetch(`${second.info.baseUrl}/api/public/v1/stream?cursor=0`, {
      headers,
      signal: AbortSignal.timeout(2000),
    });
    const reader = stream.body!.getReader();
    let text = '';
    while (!text.includes('\nid: 3\n')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(text).toMatch(/id: 1\nevent: webhook.created/);
    // The token printed before the crash is still valid (tokens are persisted as hashes).
    expect(
      (
        await fetch(`${second.info.baseUrl}/api/public/v1/connections`, {
          headers: { ...headers, authorization: `Bearer ${first.info.token}` },
        })
      ).status,
    ).toBe(200);
    second.child.kill('SIGTERM');
    console.log(`durability: ${acks.length} acknowledged writes checked after kill -9`);
  }, 60_000);
});
