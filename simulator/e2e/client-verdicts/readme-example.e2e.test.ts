// The README's vitest example ("Client verdicts"), run as written (only the import path differs).
import { randomUUID } from 'node:crypto';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSandbox, withRetry } from '../../index.ts';

const sandbox = createSandbox({ activationDelayMs: 0 });
const server = setupServer(...sandbox.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

// Your client: one key per operation, reused by every retry (withRetry: the interface's guidance).
// In the test its waits pass on the sandbox clock instead of being slept: the rules time calls by it.
const sleep = async (ms: number) => void (await sandbox.control.advanceClock(ms / 1000));
async function createConnection(auth: { token: string; tenant: string }, body: object) {
  const key = `create-${randomUUID()}`;
  const { result } = await withRetry(
    () =>
      fetch(`${sandbox.baseUrl}/api/public/v1/connections`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${auth.token}`,
          'x-service-tenant': auth.tenant,
          'service-version': '2026-07-01',
          'idempotency-key': key,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      }),
    { sleep },
  );
  return (await result.json()).data;
}

it('gets the committed connection back after a 500, and breaks no client rule', async () => {
  const auth = sandbox.issueToken();
  // The next create is committed, then answered 500: only a retry with the same key gets it back.
  sandbox.control.addFault({ kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal' });
  const connection = await createConnection(auth, {
    connectorId: 'tillcraft-pos-cloud',
    environment: 'sandbox',
    scopeLabel: 'Harbour Kitchens Quay Street',
    capabilities: ['orders.read'],
  });
  expect(connection.connectorId).toBe('tillcraft-pos-cloud');
  expect(sandbox.state.connections.count()).toBe(1);
  const report = sandbox.clientReport();
  expect(report.rules.filter((r) => r.status === 'fail')).toEqual([]);
  expect(report.rules.find((r) => r.id === 'retry.same-key-and-content')?.status).toBe('pass');
});
