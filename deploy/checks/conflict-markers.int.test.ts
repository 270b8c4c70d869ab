import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** A merge that left its conflict markers in a comment or a doc still builds: this check does not let it land. */
const root = path.resolve(import.meta.dirname, '../..');
const textFile = /\.(ts|tsx|js|cjs|mjs|json|md|css|html|ya?ml|sh)$/;

describe('the tree', () => {
  it('holds no merge conflict markers', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((file) => textFile.test(file));
    expect(files.length).toBeGreaterThan(100);
    const marked = files.filter((file) =>
      /^(<{7}|>{7})( |$)/m.test(readFileSync(path.join(root, file), 'utf8')),
    );
    expect(marked).toEqual([]);
  });
});
