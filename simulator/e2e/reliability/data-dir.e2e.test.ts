import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { serve } from '../../app/serve.ts';
import { DATABASE_FILE } from '../../state/persistence/sqlite-persistence.ts';
import { NCS_BIN as BIN, waitForReadyFile } from '../ready-file.ts';

const children: ChildProcess[] = [];

/** Runs `ncs serve --data-dir dir`; resolves with the child and how it ended (or `ready` once it listens). */
function serveOn(dataDir: string, ready: string) {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--quiet', '--data-dir', dataDir, '--ready-file', ready],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr })),
  );
  return { child, exited };
}

const mode = (file: string) => statSync(file).mode & 0o777;

describe('one process per data dir; damaged data dirs refused by name', () => {
  const root = mkdtempSync(join(tmpdir(), 'ncs-datadir-'));
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });

  it('a second serve on the same data dir exits 2 naming it; a killed owner leaves no stale lock', async () => {
    const dir = join(root, 'shared');
    const first = serveOn(dir, join(root, 'a.json'));
    await waitForReadyFile(join(root, 'a.json'));
    const second = serveOn(dir, join(root, 'b.json'));
    const refused = await second.exited;
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`the data dir ${dir} is in use by another ncs process`);
    expect(existsSync(join(root, 'b.json'))).toBe(false);
    first.child.kill('SIGKILL');
    await first.exited;
    const third = serveOn(dir, join(root, 'c.json'));
    const info = await waitForReadyFile(join(root, 'c.json'));
    expect((await fetch(`${info.baseUrl}/api/public/v1`)).status).toBe(200);
    third.child.kill('SIGTERM');
    expect((await third.exited).code).toBe(0);
  }, 30_000);

  it('the database and the ready file are owner-only (0600); the ready file is removed at shutdown', async () => {
    const dir = join(root, 'modes');
    const ready = join(root, 'modes.json');
    const run = serveOn(dir, ready);
    await waitForReadyFile(ready);
    expect(mode(join(dir, DATABASE_FILE))).toBe(0o600);
    expect(mode(ready)).toBe(0o600);
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
    expect(existsSync(ready)).toBe(false);
  });

  it('a 0-byte database is refused naming the file', async () => {
    const dir = join(root, 'empty');
    mkdirSync(dir);
    writeFileSync(join(dir, DATABASE_FILE), '');
    const { code, stderr } = await serveOn(dir, join(root, 'empty.json')).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(`${join(dir, DATABASE_FILE)} is empty (0 bytes)`);
  });

  it.each([
    ['not JSON', 'tokens', '{"clientId":'],
    ['the wrong shape', 'connections', 'null'],
  ])('a record that is %s aborts naming the file and table, with no parser or TypeError text', async (_, ns, value) => {
    const dir = join(root, `bad-${ns}`);
    const ready = join(root, `bad-${ns}.json`);
    // A sound data dir, made by the library's serve() in this process (the start that refuses it is the subject).
    await (await serve({ port: 0, dataDir: dir })).close();
    const db = new DatabaseSync(join(dir, DATABASE_FILE));
    db.prepare('INSERT INTO records (ns, key, value) VALUES (?, ?, ?)').run(ns, 'broken-1', value);
    db.close();
    const { code, stderr } = await serveOn(dir, ready).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(join(dir, DATABASE_FILE));
    expect(stderr).toContain(`table records (ns ${ns}, key broken-1)`);
    expect(stderr).not.toMatch(/TypeError|SyntaxError|Unexpected token|Cannot read|\n\s+at /);
  });

  it('a webhook delivery pending at kill -9 is resumed by the next process and succeeds', async () => {
    // The receiver holds the first attempt open (so it is in flight when the process dies), then answers 204.
    let answer = false;
    const held: ServerResponse[] = [];
    const seen: string[] = [];
    // Resolved by the receiver itself as the attempts arrive (no polling).
    const arrivals = new Map<number, () => void>();
    const attempt = (n: number) =>
      new Promise<void>((resolve) => (seen.length >= n ? resolve() : arrivals.set(n, resolve)));
    const rx = createServer((req, res) => {
      seen.push(String(req.headers['ncs-delivery']));
      arrivals.get(seen.length)?.();
      req.resume();
      if (answer) res.writeHead(204).end();
      else held.push(res);
    });
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/hooks`;
    const dir = join(root, 'deliveries');
    const ready = join(root, 'deliveries.json');
    const first = serveOn(dir, ready);
    const info = await waitForReadyFile(ready);
    const auth = { authorization: `Bearer ${info.token}`, 'x-service-tenant': info.tenant };
    const hook = (await (
      await fetch(`${info.baseUrl}/api/public/v1/webhooks`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'resume-hook-1' },
        body: JSON.stringify({ url, events: ['order.paid'] }),
      })
    ).json()) as { data: { id: string } };
    await fetch(`${info.baseUrl}/_sandbox/trigger`, {
      method: 'POST',
      headers: { authorization: `Bearer ${info.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'order.paid', tenant: info.tenant }),
    });
    await attempt(1);
    expect(seen.length).toBe(1);
    first.child.kill('SIGKILL');
    await first.exited;
    for (const r of held) r.destroy();
    answer = true;
    // The next start on the data dir is only the one that resumes: the library's serve() in this
    // process (the same start the command runs, over real HTTP; a process costs ~0.5 s of CPU). The
    // process's own part, the kill -9, is above.
    const again = await serve({ port: 0, dataDir: dir });
    const deliveries = async () =>
      (
        (await (
          await fetch(`${again.baseUrl}/api/public/v1/webhooks/${hook.data.id}/deliveries`, {
            headers: { authorization: `Bearer ${again.token}`, 'x-service-tenant': again.tenant },
          })
        ).json()) as { data: { deliveries: { id: string; status: string }[] } }
      ).data.deliveries;
    await attempt(2); // the resumed attempt reached the receiver; its outcome is recorded as it answers
    let list = await deliveries();
    for (let i = 0; i < 100 && list[0]?.status !== 'succeeded'; i++) {
      await sleep(50);
      list = await deliveries();
    }
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: seen[0], status: 'succeeded' });
    expect(seen.at(-1)).toBe(seen[0]);
    await again.close();
    rx.close();
  }, 30_000);
});
