import type { FixtureSet } from '../contract/fixtures.ts';
import type { ClientRecord } from '../services/client-service.ts';
import { OAuthError } from './oauth-error.ts';

export type Person = FixtureSet['persons'][number];

/**
 * The sandbox's stand-in for signing a person in (not part of the interface): the fixture person
 * named by login_hint (id or e-mail), else the first person released for one of the client's
 * tenants. The token acts for the tenants both the person and the client are released for.
 * @example const { person, tenants } = signInTestPerson(client, 'luis-ferrer', fixtures.persons);
 */
export function signInTestPerson(client: ClientRecord, loginHint: string | undefined, persons: readonly Person[]) {
  const shared = (p: Person) => client.tenants.filter((t) => p.tenants.includes(t));
  let person: Person | undefined;
  if (loginHint !== undefined) {
    person = persons.find((p) => p.id === loginHint || p.email.toLowerCase() === loginHint.toLowerCase());
    if (!person)
      throw new OAuthError(
        'access_denied',
        `No test person matches login_hint; the fixtures know: ${persons.map((p) => p.id).join(', ') || 'none'}.`,
      );
  } else {
    person = persons.find((p) => shared(p).length > 0);
    if (!person)
      throw new OAuthError('access_denied', `No test person in the fixtures is released for a tenant of ${client.id}.`);
  }
  const tenants = shared(person);
  if (!tenants.length) {
    throw new OAuthError(
      'access_denied',
      `${person.id} is released for no tenant of ${client.id} (${client.tenants.join(', ')}).`,
    );
  }
  return { person, tenants };
}
