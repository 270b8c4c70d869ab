import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md's folder table is the map a newcomer reads first: every path it names
 * exists, and every package, adapter, service and app of the tree is named in it.
 */
const root = path.resolve(import.meta.dirname, '../..');
const map = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
const table = map.slice(map.indexOf('## Folders'), map.indexOf('\n## ', map.indexOf('## Folders') + 1));
const rows = [...table.matchAll(/^\| `([^`]+)`/gm)].map((match) => match[1]!);
const folders = (parent: string) =>
  readdirSync(path.join(root, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(root, parent, entry.name, 'package.json')))
    .map((entry) => `${parent}/${entry.name}`);

describe('the architecture map', () => {
  it('names only paths that exist', () => {
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      const concrete = row.replace(/\/(\*|<name>)$/, '');
      expect(existsSync(path.join(root, concrete)), row).toBe(true);
    }
  });

  it('names every app, package and service of the tree', () => {
    const named = (folder: string) =>
      rows.includes(folder) ||
      rows.some((row) => row.endsWith('/*') && folder.startsWith(row.slice(0, -1))) ||
      (folder.startsWith('services/') && rows.includes('services/<name>'));
    const tree = [
      ...folders('apps'),
      ...folders('packages').filter((folder) => folder !== 'packages/adapters'),
      ...folders('packages/adapters'),
      ...folders('services'),
    ];
    expect(tree.length).toBeGreaterThan(15);
    for (const folder of tree) expect(named(folder), folder).toBe(true);
  });
});
