// Starts birch from the command line and prints its coordinates (for running the kit's CLI by hand).
import { writeFileSync } from 'node:fs';
import { startBirch } from './index.ts';

const birch = await startBirch();
const info = { ...birch, close: undefined };
if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify(info));
console.log(JSON.stringify(info));
process.on('SIGTERM', () => void birch.close().then(() => process.exit(0)));
