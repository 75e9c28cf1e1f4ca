import { httpScenario } from './http-scenario.ts';

export const providersScenario = httpScenario({
  id: 'providers',
  title: 'GET /providers (authenticated)',
  measures:
    'Bearer token + tenant, route match, auth, validation and the cached catalog payload in a fresh envelope per request.',
  request: 'providers',
});
