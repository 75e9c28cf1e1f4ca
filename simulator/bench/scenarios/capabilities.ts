import { httpScenario } from './http-scenario.ts';

export const capabilitiesScenario = httpScenario({
  id: 'capabilities',
  title: 'POST /capabilities (decision)',
  measures:
    'JSON body parse and schema validation, then a capability decision over the catalog and the tenant connections.',
  request: 'capabilities',
});
