import { describe, expect, it } from 'vitest';
import { createSandbox, stopStream } from '../../simulator/index.ts';
import { applyViolation, findViolation, VIOLATION_NAMES, violationOptions } from './index.ts';

const get = (path: string, headers: Record<string, string> = {}) => ({ method: 'GET', path, query: {}, headers });

describe('violations', () => {
  it('are looked up by name; an unknown name lists the known ones', () => {
    expect(findViolation('missing-request-id').section).toBe('Meta');
    expect(() => findViolation('nope')).toThrow(/unknown violation "nope"; known: .*missing-request-id/);
    expect(() => violationOptions('nope')).toThrow(/unknown violation/);
    expect(new Set(VIOLATION_NAMES).size).toBe(VIOLATION_NAMES.length);
  });

  it('wrap the core and break one rule, leaving the original core intact', async () => {
    const sandbox = createSandbox();
    const broken = applyViolation(sandbox.core, 'missing-request-id');
    const res = await broken.handle(get('/api/public/v1'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body!).meta.requestId).toBeUndefined();
    expect(JSON.parse((await sandbox.core.handle(get('/api/public/v1'))).body!).meta.requestId).toMatch(/^req_/);
  });

  it('as a sandbox option affect both addresses, or only the alternate one when the violation says so', async () => {
    const both = createSandbox(violationOptions('unpublished-version'));
    for (const core of [both.core, both.altCore])
      expect(JSON.parse((await core.handle(get('/api/public/v1'))).body!).meta.version).toBe('2026-07-15');
    const alt = createSandbox(violationOptions('alt-base-differs'));
    const { token, tenant } = alt.issueToken();
    const headers = { authorization: `Bearer ${token}`, 'x-service-tenant': tenant };
    const count = async (core: typeof alt.core) =>
      JSON.parse((await core.handle(get('/api/public/v1/providers', headers))).body!).data.count;
    expect(await count(alt.core)).toBeGreaterThan(1);
    expect(await count(alt.altCore)).toBe(1);
    const clean = createSandbox();
    expect(clean.altCore).toBe(clean.core);
  });

  it('edit event streams chunk by chunk, and reach the webhook dispatcher through its options', async () => {
    const sandbox = createSandbox(violationOptions('sse-duplicate-id'));
    const { token, tenant } = sandbox.issueToken();
    const res = await sandbox.core.handle(
      get('/api/public/v1/stream', { authorization: `Bearer ${token}`, 'x-service-tenant': tenant }),
    );
    const chunks: string[] = [];
    const stop = res.stream!.open({ write: (c) => chunks.push(c) > 0, end: () => undefined });
    sandbox.state.feeds.publish(`tenant:${tenant}`, 'order.paid', { n: 1 });
    stopStream(stop);
    expect(chunks.filter((c) => c.startsWith('id: 1\n'))).toHaveLength(2);
    expect(findViolation('webhook-wrong-signature').webhooks?.sign).toBeTypeOf('function');
    expect(findViolation('missing-request-id').webhooks).toBeUndefined();
  });
});
