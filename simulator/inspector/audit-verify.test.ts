import { describe, expect, it } from 'vitest';
import { memoryAudit as createAuditLog } from '../test-support/memory-streams.ts';
import { verifyAuditRange as serverVerify } from '../contract/audit-verify.ts';

// The page's port of the chain check (plain ES module, Web Crypto) must agree with the server's.
const modulePath = new URL('./assets/audit-verify.js', import.meta.url).href;
const browser = (await import(modulePath)) as {
  verifyAuditRange(entries: unknown[], proof: unknown): Promise<{ ok: boolean; seq?: number; message?: string }>;
};

function chain(n: number) {
  const audit = createAuditLog();
  for (let i = 1; i <= n; i++)
    audit.append('harbour-kitchens', {
      requestId: `req_${i}`,
      actor: 'harbour-backend',
      action: 'connection.create',
      target: `connection:con_${i}`,
    });
  return audit.list('harbour-kitchens', { limit: 100 });
}

describe('audit chain check in the browser module', () => {
  it('verifies what the server verifies, whole chains and newest-first ranges alike', async () => {
    const { entries, proof } = chain(5);
    expect(serverVerify(entries, proof).ok).toBe(true);
    expect(await browser.verifyAuditRange(entries, proof)).toEqual({ ok: true, count: 5 });
    expect(await browser.verifyAuditRange([], { ...proof, fromSeq: 1, toSeq: 0 })).toEqual({ ok: true, count: 0 });
  });

  it('finds a changed entry, a broken link and a missing entry, naming the seq', async () => {
    const { entries, proof } = chain(4);
    const changed = entries.map((e) => (e.seq === 2 ? { ...e, actor: 'mallory' } : e));
    expect(serverVerify(changed, proof).ok).toBe(false);
    expect(await browser.verifyAuditRange(changed, proof)).toMatchObject({
      ok: false,
      seq: 2,
      message: expect.stringContaining('content was changed'),
    });
    const missing = entries.filter((e) => e.seq !== 3);
    expect(await browser.verifyAuditRange(missing, proof)).toMatchObject({ ok: false, seq: 3 });
    const relinked = entries.map((e) => (e.seq === 4 ? { ...e, prevHash: 'f'.repeat(64) } : e));
    expect((await browser.verifyAuditRange(relinked, proof)).ok).toBe(false);
  });
});
