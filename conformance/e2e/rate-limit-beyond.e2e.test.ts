// responses.rate-limit-headers-beyond judges the authenticated answers beyond the endpoint table by the rate-limit
// headers the table's answers carry, except an endpoint that answers without a token too (a public /info counts no
// access, so it needs no window). Both sides over real HTTP: /info without the headers fails the rule where it
// needs a token, and passes with a note where it is public.
import { describe, expect, it } from 'vitest';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Core, PlainRequest } from '../../simulator/index.ts';
import { runConformance } from '../runner/run.ts';
import { defaultAccess } from '../violations/default-access.ts';
import { httpTarget, noWait } from './targets.ts';

const INFO = `${BASE_PATH}/info`;

/** A core whose GET /info answers without the rate-limit headers, and with `publicInfo` without a token too. */
const infoWithoutHeaders =
  (publicInfo: boolean) =>
  (core: Core): Core => ({
    ...core,
    async handle(req: PlainRequest) {
      if (req.method !== 'GET' || req.path !== INFO) return core.handle(req);
      const bare = !req.headers.authorization;
      const { token, tenant } = await defaultAccess(core);
      const sent =
        publicInfo && bare
          ? { ...req, headers: { ...req.headers, authorization: `Bearer ${token}`, 'x-service-tenant': tenant } }
          : req;
      const res = await core.handle(sent);
      const headers = Object.fromEntries(
        Object.entries(res.headers).filter(([k]) => !k.toLowerCase().startsWith('x-ratelimit-')),
      );
      return { ...res, headers };
    },
  });

async function verdict(publicInfo: boolean) {
  const target = await httpTarget({ wrapCore: infoWithoutHeaders(publicInfo) });
  try {
    const run = await runConformance({ ...target.kit, retry: noWait });
    return run.results.find((r) => r.check.name === 'responses.rate-limit-headers-beyond');
  } finally {
    await target.close();
  }
}

describe('responses.rate-limit-headers-beyond and a public endpoint beyond the table', () => {
  it('fails GET /info without the rate-limit headers where it needs a token', async () => {
    const r = await verdict(false);
    expect(r?.status).toBe('fail');
    expect(r?.failures[0]?.expected).toMatch(/GET \/api\/public\/v1\/info carries X-RateLimit-Limit/);
  });
  it('passes it where /info answers without a token too (public: it counts no access), and says so', async () => {
    const r = await verdict(true);
    expect(r?.status).toBe('pass');
    expect(r?.notes.join(' ')).toMatch(/GET \/api\/public\/v1\/info answers 200 without a token too \(public\)/);
  });
});
