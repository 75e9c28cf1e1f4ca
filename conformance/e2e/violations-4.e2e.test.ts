import { violationSuite } from './violation-suite.ts';

violationSuite(3);
