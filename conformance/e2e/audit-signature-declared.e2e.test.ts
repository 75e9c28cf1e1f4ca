// audit.signature with the scheme declared in the deployment profile (auditSignature): every signature is held
// to it, so a declaration that does not fit the deployment's signatures fails the MUST, and one that fits passes.
// kapok (an independent deployment) signs its chain head as text with Ed25519, its JWK beside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../index.ts';
import { startKapok } from './independent/kapok/server.ts';
import { independentOptions } from './independent-options.ts';

describe('audit.signature judged by the scheme the deployment profile declares', () => {
  let kapok: Awaited<ReturnType<typeof startKapok>>;
  beforeAll(async () => {
    kapok = await startKapok();
  });
  afterAll(() => kapok.close());

  const judged = async (auditSignature: Record<string, string>) => {
    const run = await runConformance({
      ...independentOptions(kapok),
      deploymentProfile: { auditSignature },
      // records-change makes the log's entries (two creations) that the signature then covers.
      grep: '^audit\\.(signature|records-change)$',
    });
    const r = run.results.find((x) => x.check.name === 'audit.signature');
    return r;
  };

  it('passes where the declared signed text is the one signed', async () => {
    expect((await judged({ field: 'proof.signature', input: '{head}' }))?.status).toBe('pass');
  }, 60_000);

  it('fails where it is not (a signature that verifies by no declared scheme is no proof)', async () => {
    const r = await judged({ field: 'proof.signature', input: '{head}|{headSeq}' });
    expect(r?.status).toBe('fail');
    expect(JSON.stringify(r?.failures)).toMatch(/the scheme the deployment profile declares/);
  }, 60_000);
});
