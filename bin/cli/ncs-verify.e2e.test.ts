import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryAuditChain as createAuditChain } from '../../simulator/test-support/memory-streams.ts';
import { signWebhook } from '../../simulator/contract/webhook-signature.ts';
import { NCS_BIN as BIN } from '../../simulator/e2e/ready-file.ts';

// The verdicts in detail are unit-tested beside simulator/cli/*; here: the wiring, stdin, exit codes.
function run(args: string[], opts: { input?: Buffer; env?: Record<string, string> } = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, NCS_WEBHOOK_SECRET: '', ...opts.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

const dir = mkdtempSync(join(tmpdir(), 'ncs-verify-'));
const SECRET = 'whsec_cli_test_secret';
const T = 1_767_225_600;
const body = Buffer.from('{"id":"evt_1","type":"connection.created","data":{"scopeLabel":"Harbour Café"}}\n', 'utf8');
const bodyFile = join(dir, 'body.json');
writeFileSync(bodyFile, body);
const header = signWebhook(body, SECRET, T);

describe('ncs webhook / ncs audit as subprocesses', () => {
  it('ncs webhook sign and verify: file or stdin, flag or env secret, exit 0 / 1 / 2', async () => {
    const [signFile, signStdin, valid, invalid, usage] = await Promise.all([
      run(['webhook', 'sign', '--secret', SECRET, '--timestamp', String(T), '--file', bodyFile]),
      run(['webhook', 'sign', '--timestamp', String(T)], { input: body, env: { NCS_WEBHOOK_SECRET: SECRET } }),
      run(['webhook', 'verify', '--secret', SECRET, '--header', header, '--now', String(T + 100)], { input: body }),
      run(['webhook', 'verify', '--secret', SECRET, '--header', header, '--file', bodyFile, '--now', String(T + 400)]),
      run(['webhook', 'verify', '--secret', SECRET, '--file', bodyFile]),
    ]);
    expect([signFile.status, signFile.stdout]).toEqual([0, `${header}\n`]);
    expect([signStdin.status, signStdin.stdout]).toEqual([0, `${header}\n`]);
    expect(valid.status).toBe(0);
    expect(valid.stdout).toMatch(/^valid: signature matches, t=1767225600 \(100 s ago/);
    expect(invalid.status).toBe(1);
    expect(invalid.stderr).toMatch(/^invalid: stale: .*400 s off, tolerance 300 s/);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/required option '--header/);
  });

  it('ncs audit verify: exit 0 intact, 1 tampered (naming the seq), 2 unreadable', async () => {
    const chain = createAuditChain('harbour-kitchens');
    for (let i = 1; i <= 7; i++)
      chain.append({
        requestId: `req_${i}`,
        actor: 'harbour-backend',
        action: 'connection.create',
        target: `connection:con_${i}`,
      });
    const { entries, proof } = JSON.parse(JSON.stringify(chain.list({ limit: 5 })));
    const intactFile = join(dir, 'audit.json');
    writeFileSync(
      intactFile,
      JSON.stringify(
        { ok: true, data: { tenant: 'harbour-kitchens', count: 5, entries, proof }, meta: { requestId: 'req_x' } },
        null,
        2,
      ),
    );
    entries[2].actor = 'someone-else';
    const tamperedFile = join(dir, 'tampered.json');
    writeFileSync(tamperedFile, JSON.stringify({ ok: true, data: { entries, proof } }));
    const [intact, tampered, missing] = await Promise.all([
      run(['audit', 'verify', intactFile]),
      run(['audit', 'verify', tamperedFile]),
      run(['audit', 'verify', join(dir, 'nope.json')]),
    ]);
    expect(intact.status).toBe(0);
    expect(intact.stdout).toMatch(/^intact: 5 entries, seq 3\.\.7, head [0-9a-f]{16}… \(chain head seq 7\)/);
    expect(tampered.status).toBe(1);
    expect(tampered.stderr).toMatch(/^FAILED: hash_mismatch at seq 5: /);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^ncs audit verify: cannot read /);
  });
});
