// Rewrites conformance/README.md's generated tables (checks, violations) from the registry:
//   npx node conformance/reporters/update-readme.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { updateReadme } from './readme-tables.ts';

const file = join(import.meta.dirname, '..', 'README.md');
writeFileSync(file, updateReadme(readFileSync(file, 'utf8')));
