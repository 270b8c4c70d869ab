import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The web client's build fingerprint: a hash of the contents (not the times, which a checkout
 * or a copy changes) of what the build reads: the app, the packages it bundles, its config and
 * the lockfile. Every build stores it in dist/.source-hash; `npm start` builds only when the
 * sources no longer match it (build-if-changed.ts).
 */
const webDir = path.resolve(import.meta.dirname, '..');
const repoRoot = path.resolve(webDir, '..');
export const distDir = path.join(webDir, 'dist');
const stampFile = path.join(distDir, '.source-hash');
const inputs = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/package.json',
  'packages/contracts/src',
  'packages/crypto/src',
  'package-lock.json',
];

const filesUnder = (relative: string): string[] => {
  const full = path.join(repoRoot, relative);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full)
    .filter((name) => !name.includes('.test.'))
    .flatMap((name) => filesUnder(path.join(relative, name)));
};

export const sourceHash = (): string => {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(filesUnder).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(repoRoot, file)));
  }
  return hash.digest('hex');
};

/** The fingerprint of the build in dist/, or null when there is none (or it predates fingerprints). */
export const builtHash = (): string | null =>
  existsSync(stampFile) && existsSync(path.join(distDir, 'index.html'))
    ? readFileSync(stampFile, 'utf8')
    : null;

export const storeBuiltHash = (hash: string): void => writeFileSync(stampFile, hash);
