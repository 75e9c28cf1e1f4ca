import type { SandboxOptions } from '../../app/sandbox-options.ts';
import type { Target } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { ok } from './unnamed8-kit.ts';

const realMs = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A call whose body is JSON text sent under another Content-Type (or none): the service answers 400. */
const sentAs = (t: Target, a: ReturnType<typeof auth>, path: string, body: object, type: string, key?: string) =>
  api(t, a, 'POST', path, { raw: JSON.stringify(body), ...(key ? { key } : {}), headers: { 'content-type': type } });

/**
 * Round 27 probes where the remedy is in a header the content comparison does not see (the rules take the
 * Content-Type and charset fixes for an unchanged 400: a wrong verdict, reported, its tests left failing), a stream replaced
 * before the stalled one is closed (make-before-break), and cursors of two tenants swapped.
 */
export const PROBES_WELL_BEHAVED_27: UnnamedClient2[] = [
  // "invalid_request ... check the request against the published description": the check went out as
  // text/plain (a fetch wrapper's default for a string body) and was refused 400 "The body must be JSON
  // (Content-Type: application/json)"; the client fixes the Content-Type and sends the same body once.
  {
    does: 'fixes a capability check refused 400 for its Content-Type (text/plain) by sending the same body once as application/json',
    pass: [],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' };
      const bad = await sentAs(t, a, '/capabilities', body, 'text/plain;charset=UTF-8');
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(1_000);
      ok('fixed', await sentAs(t, a, '/capabilities', body, 'application/json'));
    },
  },
  // The same remedy on a create: the key was not spent on the refused call (no operation ran), so the
  // corrected call keeps it, as the operation it stands for is still the same one.
  {
    does: 'fixes a create refused 400 for its Content-Type (text/plain) by sending the same body under the same key once as application/json',
    pass: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Content Type Couscous' };
      const bad = await sentAs(t, a, '/connections', body, 'text/plain', 'ct-fix-op-3e91a0c4');
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(1_000);
      ok('fixed', await sentAs(t, a, '/connections', body, 'application/json', 'ct-fix-op-3e91a0c4'));
    },
  },
  // The same remedy for the charset: the body went out labelled ISO-8859-1 and was refused 400 "The body
  // must be JSON in UTF-8"; the client relabels it UTF-8 and sends the same body once.
  {
    does: 'fixes a capability check refused 400 for its charset (application/json; charset=iso-8859-1) by sending the same body once labelled UTF-8',
    pass: [],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'tillcraft-pos-cloud', capability: 'payments.refund' };
      const bad = await sentAs(t, a, '/capabilities', body, 'application/json; charset=iso-8859-1');
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(1_000);
      ok('fixed', await sentAs(t, a, '/capabilities', body, 'application/json; charset=utf-8'));
    },
  },
  // A proxy dropped the tenant header (400 "header x-service-tenant is required"); the client sends the
  // same read again with it: another request, now for a tenant.
  {
    does: 'sends a read again with its x-service-tenant header after a proxy dropped it (400 "header x-service-tenant is required")',
    pass: [],
    async run(t) {
      const a = auth(t);
      const bad = await api(t, a, 'GET', '/connections', { headers: { 'x-service-tenant': '' } });
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(1_000);
      ok('fixed', await api(t, a, 'GET', '/connections'));
    },
  },
  // "resumes without gaps by sending Last-Event-ID ... (last number read)": the consumer notices a stall
  // and opens the replacement stream from its last number before it closes the silent one.
  {
    does: 'notices its stream stalled after three messages and opens the replacement with Last-Event-ID 3 before closing the silent one',
    pass: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_stall', afterMessages: 3, stallMs: 120_000, count: 1 });
      let read: number[] = [];
      const stalled = readStream(t, a, { idleMs: 2_500, onOpen: () => publish(t, a.tenant, 3) }).then((ids) => {
        read = ids;
      });
      await realMs(800);
      const more = await readStream(t, a, { cursor: 3, idleMs: 600, onOpen: () => publish(t, a.tenant, 1) });
      await stalled;
      if (read.at(-1) !== 3 || more[0] !== 4) throw new Error(`read ${read.join()} then ${more.join()}`);
    },
  },
];

export const PROBES_MISBEHAVING_27: (FaultyClient & { options?: SandboxOptions })[] = [
  // "resumes without gaps by sending ... (last number read)": an integrator streaming two tenants keeps its
  // cursors in one map keyed by connection slot, not tenant; after a redeploy the slots come up swapped, so
  // each tenant resumes with the other's last number.
  {
    does: 'streams two tenants with one token and, after both are cut, resumes each with the other tenant’s last number (cursors keyed by slot)',
    fails: ['stream.resume-from-last-read'],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      const { token } = t.sandbox.issueToken('network-integrator');
      const tenants = ['harbour-kitchens', 'alpine-bistro'];
      const lasts: number[] = [];
      for (const [i, tenant] of tenants.entries()) {
        fault(t, { kind: 'stream_cut', afterMessages: 2 + i, count: 1 });
        const ids = await readStream(t, { token, tenant }, { onOpen: () => publish(t, tenant, 2 + i) });
        lasts.push(ids.at(-1) ?? 0);
      }
      if (lasts[0] === lasts[1]) throw new Error(`both read up to ${lasts[0]}`);
      await sleeper(t)(2_000);
      for (const [i, tenant] of tenants.entries())
        await readStream(
          t,
          { token, tenant },
          { cursor: lasts[1 - i] ?? 0, idleMs: 600, onOpen: () => publish(t, tenant, 1) },
        );
    },
  },

  // "retry only after rate_limited and internal": the same check refused 400 for its Content-Type is sent
  // again unchanged (still text/plain): a 400 repeated.
  {
    does: 'sends a capability check refused 400 for its Content-Type (text/plain) again twice, still as text/plain',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' };
      for (let i = 0; i < 3; i++) {
        const r = await sentAs(t, a, '/capabilities', body, 'text/plain');
        if (r.status !== 400) throw new Error(`answered ${r.status}`);
        await sleeper(t)(1_000 * 2 ** i);
      }
    },
  },
];

/** A make-before-break replacement from an old cursor, while the stalled stream is still open. */
export async function replacedFromOldCursor(t: Target) {
  const a = auth(t);
  fault(t, { kind: 'stream_stall', afterMessages: 3, stallMs: 120_000, count: 1 });
  const stalled = readStream(t, a, { idleMs: 2_500, onOpen: () => publish(t, a.tenant, 3) });
  await realMs(800);
  await readStream(t, a, { cursor: 1, idleMs: 600, onOpen: () => publish(t, a.tenant, 1) });
  const read = await stalled;
  if (read.at(-1) !== 3) throw new Error(`read ${read.join()}`);
}
