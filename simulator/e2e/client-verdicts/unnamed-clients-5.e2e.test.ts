import { unnamedSuite } from './unnamed-suite.ts';
import { MISBEHAVING_5 } from './unnamed5-misbehaving.ts';
import { RECEIVERS_5 } from './unnamed5-receivers.ts';
import { WELL_BEHAVED_5 } from './unnamed5-well-behaved.ts';

// The fifth round of clients nobody named elsewhere: deployments as they really run. Fleets of pods of
// one client id (a token, a key generator and a stream each), deploys, restarts, failovers and token
// lifecycles over days, run on the fleet scheduler of unnamed5-fleet.ts. Long waits are the sandbox
// clock advanced, never slept.
unnamedSuite('round 5', { wellBehaved: WELL_BEHAVED_5, misbehaving: MISBEHAVING_5, receivers: RECEIVERS_5 });
