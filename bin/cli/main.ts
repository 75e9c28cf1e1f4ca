// The ncs program's start, loaded by bin/ncs.ts once this Node can run TypeScript (and bundled as the
// installed package's dist/cli/ncs-main.cjs, from program.ts). Node's compile cache goes on before the program loads, so
// its modules are compiled (and, from source, stripped of their types) once per change rather than on
// every start: about a third of a cold `ncs serve`. NODE_DISABLE_COMPILE_CACHE=1 turns it off;
// NODE_COMPILE_CACHE moves it (default: the user's own cache folder, 0700, never a shared temp folder;
// see compile-cache.js). From bin/ncs.mjs the cache is already on: enabling it again changes nothing.
import { enableCompileCache } from 'node:module';
import { enableUserCompileCache } from '../../simulator/package/compile-cache.js';

enableUserCompileCache(enableCompileCache);
await import('./program.ts');
