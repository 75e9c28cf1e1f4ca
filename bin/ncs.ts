#!/usr/bin/env node
// The ncs command. Node's compile cache goes on before the program loads, so its modules are
// compiled (and, from source, stripped of their types) once per change rather than on every start:
// about a third of a cold `ncs serve`. NODE_DISABLE_COMPILE_CACHE=1 turns it off; NODE_COMPILE_CACHE
// moves it (default: the system temp folder).
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./program.ts');
