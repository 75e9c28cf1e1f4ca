import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/api-error.ts';
import { adminAuthStep } from './admin-auth.ts';
import { okResponse, testContext } from '../test-support/test-context.ts';

const guard = adminAuthStep({
  adminToken: 'ncs_admin_secret',
  tokens: { lookup: (t) => (t === 'ncs_at_tenant' ? ({ clientId: 'c' } as never) : undefined) },
}).run;
const run = (authorization: string | undefined, auth = true) =>
  guard(testContext({ route: { auth }, headers: authorization === undefined ? {} : { authorization } }), async () =>
    okResponse(),
  );
const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'passed';
  } catch (err) {
    return err instanceof ApiError ? `${err.status} ${err.code} ${err.detail}` : String(err);
  }
};

describe('adminAuthStep', () => {
  it('lets the admin token through, whatever the case of the scheme', async () => {
    expect(await codeOf(run('Bearer ncs_admin_secret'))).toBe('passed');
    expect(await codeOf(run('bearer ncs_admin_secret'))).toBe('passed');
  });

  it('answers 401 without a token or with an unknown one, 403 for a tenant token', async () => {
    expect(await codeOf(run(undefined))).toBe('401 unauthorized The control plane needs the admin token.');
    expect(await codeOf(run('Basic abc'))).toBe('401 unauthorized The control plane needs the admin token.');
    expect(await codeOf(run('Bearer ncs_admin_wrong'))).toBe('401 unauthorized The admin token is not recognised.');
    expect(await codeOf(run('Bearer ncs_at_tenant'))).toBe('403 forbidden Tenant tokens cannot use the control plane.');
  });

  it('leaves routes without auth (the control plane document) open', async () => {
    expect(await codeOf(run(undefined, false))).toBe('passed');
  });
});
