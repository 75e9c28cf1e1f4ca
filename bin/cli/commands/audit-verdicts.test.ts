import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryAuditChain as createAuditChain } from '../../../simulator/test-support/memory-streams.ts';
import { auditVerifyDocument, auditVerifyFile } from './audit-verdicts.ts';

const chain = createAuditChain('harbour-kitchens');
for (let i = 1; i <= 7; i++)
  chain.append({
    requestId: `req_${i}`,
    actor: 'harbour-backend',
    action: 'connection.create',
    target: `connection:con_${i}`,
  });
const saved = () => JSON.parse(JSON.stringify(chain.list({ limit: 5 })));

describe('audit verify command', () => {
  it('accepts a success envelope or a bare {entries, proof}', () => {
    const { entries, proof } = saved();
    const ok = auditVerifyDocument({
      ok: true,
      data: { tenant: 'harbour-kitchens', count: 5, entries, proof },
      meta: {},
    });
    expect(ok.exitCode).toBe(0);
    expect(ok.message).toBe(`intact: 5 entries, seq 3..7, head ${proof.headHash.slice(0, 16)}… (chain head seq 7)`);
    expect(auditVerifyDocument({ entries, proof }).exitCode).toBe(0);
  });

  it('fails naming the reason and seq', () => {
    const { entries, proof } = saved();
    entries[2].at = '2020-01-01T00:00:00.000Z';
    expect(auditVerifyDocument({ entries, proof })).toEqual({
      exitCode: 1,
      message: expect.stringMatching(/^FAILED: hash_mismatch at seq 5: entry 5 does not hash/),
    });
    const again = saved();
    expect(auditVerifyDocument({ entries: again.entries.slice(1), proof: again.proof }).message).toMatch(
      /^FAILED: missing_seq at seq 7/,
    );
    expect(auditVerifyDocument({ entries: again.entries, proof: null }).message).toMatch(/^FAILED: malformed_proof: /);
  });

  it('says what it expected for other documents, as a usage error (exit 2)', () => {
    for (const doc of [null, 42, [], { data: [] }, { entries: [] }, { ok: true, data: { providers: [] } }])
      expect(auditVerifyDocument(doc)).toMatchObject({
        exitCode: 2,
        message: expect.stringMatching(/^not verifiable: expected a GET \/audit-log response/),
      });
    expect(auditVerifyDocument({ ok: false, error: { code: 'forbidden' } })).toEqual({
      exitCode: 2,
      message: 'not verifiable: the file is a failure response (forbidden)',
    });
  });

  it('reads files and refuses unreadable or non-JSON ones as usage errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-audit-'));
    const good = join(dir, 'a.json');
    writeFileSync(good, JSON.stringify(saved()));
    expect(auditVerifyFile(good).exitCode).toBe(0);
    const bad = join(dir, 'b.json');
    writeFileSync(bad, '{');
    expect(() => auditVerifyFile(bad)).toThrow(/is not JSON/);
    expect(() => auditVerifyFile(join(dir, 'none.json'))).toThrow(/cannot read/);
  });
});
