import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it, onTestFinished } from 'vitest';
import { serve } from '../../app/serve.ts';
import { verifyAuditRange } from '../../contract/audit-verify.ts';
import { DATABASE_FILE } from '../../state/persistence/sqlite-persistence.ts';
import { ncs } from '../cli-process.ts';
import { NCS_BIN as BIN } from '../ready-file.ts';

// Issue 23 item 9: a chain edited on disk is caught at start; the audit log pages back to entry 1, and
// `ncs audit verify` covers the whole chain.
const append = (s: Awaited<ReturnType<typeof serve>>, n: number) => {
  for (let i = 1; i <= n; i++)
    s.sandbox.state.audit.append(s.tenant, {
      requestId: `req_${i}`,
      actor: 'harbour-backend',
      action: 'connection.create',
      target: `connection:con_${i}`,
    });
};

describe('audit integrity', () => {
  it('refuses to start on a data dir whose audit chain was edited, naming tenant and seq (exit 2, one line)', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ncs-audit-')), 'data');
    const s = await serve({ port: 0, dataDir: dir });
    append(s, 600);
    await s.close();
    const db = new DatabaseSync(join(dir, DATABASE_FILE));
    const row = db.prepare('SELECT value FROM logs WHERE log = ? AND seq = 1').get(`audit:${s.tenant}`) as {
      value: string;
    };
    const edited = { ...JSON.parse(row.value), actor: 'someone-else' };
    db.prepare('UPDATE logs SET value = ? WHERE log = ? AND seq = 1').run(JSON.stringify(edited), `audit:${s.tenant}`);
    db.close();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--data-dir', dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    onTestFinished(() => void child.kill('SIGKILL'));
    let stderr = '';
    child.stderr!.on('data', (c) => (stderr += c));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`audit chain of tenant ${s.tenant}`);
    expect(stderr).toMatch(/hash_mismatch at seq 1\b/);
  }, 30_000);

  it('pages GET /audit-log backwards with ?before= to entry 1; ncs audit verify covers the whole chain', async () => {
    const s = await serve({ port: 0 });
    onTestFinished(() => s.close());
    append(s, 600);
    const api = `${s.baseUrl}/api/public/v1/audit-log`;
    const headers = { authorization: `Bearer ${s.token}`, 'x-service-tenant': s.tenant };
    const newest = (await (await fetch(`${api}?limit=500`, { headers })).json()).data;
    expect(newest.proof).toMatchObject({ fromSeq: 101, toSeq: 600 });
    const older = (await (await fetch(`${api}?limit=500&before=${newest.proof.fromSeq}`, { headers })).json()).data;
    expect(older.entries.map((e: { seq: number }) => e.seq)).toEqual(Array.from({ length: 100 }, (_, i) => 100 - i));
    expect(verifyAuditRange(older.entries, older.proof)).toMatchObject({ ok: true, fromSeq: 1, toSeq: 100 });
    expect(older.proof.headHash).toBe(newest.proof.anchorPrevHash);
    const bad = await fetch(`${api}?before=0`, { headers });
    expect(bad.status).toBe(400);

    const env = { NCS_BASE_URL: s.baseUrl, NCS_TOKEN: s.token, NCS_TENANT: s.tenant };
    const whole = await ncs(['audit', 'verify'], env);
    expect(whole.status, whole.stderr).toBe(0);
    expect(whole.stdout).toMatch(/^intact: 600 entries, seq 1\.\.600/);

    // A deployment that shows an edited entry 1 in its second page is caught.
    const proxy = createServer(async (req, res) => {
      const upstream = await fetch(`${s.baseUrl}${req.url}`, { headers });
      const body = await upstream.json();
      for (const e of body.data?.entries ?? []) if (e.seq === 1) e.actor = 'someone-else';
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    onTestFinished(() => void proxy.close());
    const forged = await ncs(['audit', 'verify'], {
      ...env,
      NCS_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    });
    expect(forged.status).toBe(1);
    expect(forged.stderr).toMatch(/FAILED: hash_mismatch at seq 1\b/);
  }, 30_000);
});
