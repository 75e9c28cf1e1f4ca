import { httpScenario } from './http-scenario.ts';

export const connectionsNewScenario = httpScenario({
  id: 'connections-new',
  title: 'POST /connections (fresh keys)',
  measures:
    'A new Idempotency-Key per request: validation, idempotency record, connection, audit entry and domain event (stream) per call.',
  request: 'connections',
});
