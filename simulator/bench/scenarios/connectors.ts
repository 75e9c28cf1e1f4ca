import { httpScenario } from './http-scenario.ts';

export const connectorsScenario = httpScenario({
  id: 'connectors',
  title: 'GET /connectors?category&capability',
  measures:
    'Query parsing and validation of two filters, then the cached filtered payload (the baseline still answers its providers envelope).',
  request: 'connectors',
});
