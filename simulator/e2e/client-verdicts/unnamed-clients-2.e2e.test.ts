import { unnamedSuite } from './unnamed-suite.ts';
import { MISBEHAVING_2 } from './unnamed2-misbehaving.ts';
import { RECEIVERS_2 } from './unnamed2-receivers.ts';
import { WELL_BEHAVED_2 } from './unnamed2-well-behaved.ts';

// The second round of clients nobody named elsewhere (none of the kinds of unnamed-clients.e2e.test.ts).
// Long waits are the sandbox clock advanced, never slept (unnamed-suite.ts says how they are run and judged).
unnamedSuite('round 2', { wellBehaved: WELL_BEHAVED_2, misbehaving: MISBEHAVING_2, receivers: RECEIVERS_2 });
