import { MISBEHAVING } from './unnamed-misbehaving.ts';
import { RECEIVERS } from './unnamed-receivers.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { WELL_BEHAVED } from './unnamed-well-behaved.ts';

// Clients nobody named in the other suites (unnamed-suite.ts says how they are run and judged).
unnamedSuite('', { wellBehaved: WELL_BEHAVED, misbehaving: MISBEHAVING, receivers: RECEIVERS });
