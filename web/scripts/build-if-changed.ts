import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { builtHash, sourceHash } from './source-hash.ts';

/** `npm start`'s first step: the web client is built only when its sources changed since the last build. */
const built = builtHash();
if (built === sourceHash()) {
  console.log('web client: up to date (its sources have not changed since the last build)');
} else {
  console.log(built ? 'web client: sources changed, building it again…' : 'web client: building it…');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
