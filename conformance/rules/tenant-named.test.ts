import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { otherTenantNamed } from './tenant-named.ts';

const notFound = (tenant: string, hint: string, status = 404) =>
  ({
    status,
    requestHeaders: { 'X-Service-Tenant': tenant },
    json: { ok: false, error: { code: 'not_found', message: 'The entry does not exist.', hint } },
  }) as unknown as Exchange;

describe('a 404 naming another tenant', () => {
  const tenants = ['harbour-kitchens', 'alpine-bistro'];
  it('is found in its message, detail or hint, whatever the header name case', () => {
    expect(otherTenantNamed(notFound('alpine-bistro', 'owned by harbour-kitchens'), tenants)).toBe(
      'error.hint names tenant harbour-kitchens, the call named alpine-bistro',
    );
  });
  it("names the call's own tenant freely, and only a tenant's whole name counts; other statuses are not judged", () => {
    expect(otherTenantNamed(notFound('alpine-bistro', 'no entry for alpine-bistro'), tenants)).toBeUndefined();
    expect(otherTenantNamed(notFound('alpine-bistro', 'see harbour-kitchens-old'), tenants)).toBeUndefined();
    expect(otherTenantNamed(notFound('alpine-bistro', 'owned by harbour-kitchens', 403), tenants)).toBeUndefined();
  });
});
