import { describe } from 'vitest';
import { behaviourSuite } from './behaviour/index.ts';
import { mswTarget } from './harness.ts';

describe('behaviour through MSW handlers', () => behaviourSuite(mswTarget));
