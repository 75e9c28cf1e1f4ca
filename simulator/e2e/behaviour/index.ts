import { afterAll, beforeAll } from 'vitest';
import type { Target, TargetFactory } from '../harness.ts';
import { authAndErrorBehaviour } from './auth-and-errors.ts';
import { catalogBehaviour } from './catalog.ts';
import { streamBehaviour } from './events.ts';
import { webhookBehaviour } from './webhooks.ts';
import { connectionBehaviour } from './connections.ts';
import { controlPlaneBehaviour } from './control-plane.ts';
import { discoveryBehaviour } from './discovery.ts';
import { oauthBehaviour } from './oauth.ts';
import { rateLimitBehaviour } from './rate-limits.ts';
import { authMatrixBehaviour } from './auth-matrix.ts';
import { timingAndAccessBehaviour } from './timing-and-access.ts';
import { inputStrictnessBehaviour } from './input-strictness.ts';

/** Registers the whole behaviour suite against one runtime. */
export function behaviourSuite(factory: TargetFactory) {
  let target: Target;
  beforeAll(async () => {
    target = await factory();
  });
  afterAll(async () => {
    await target?.close();
  });
  const get = () => target;
  discoveryBehaviour(get);
  catalogBehaviour(get);
  authAndErrorBehaviour(get);
  connectionBehaviour(get);
  controlPlaneBehaviour(get);
  streamBehaviour(get);
  webhookBehaviour(get);
  oauthBehaviour(get);
  rateLimitBehaviour(get);
  authMatrixBehaviour(get);
  timingAndAccessBehaviour(get);
  inputStrictnessBehaviour(get);
}
