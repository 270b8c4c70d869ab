import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPrerequisites, type Machine } from './prerequisites.ts';

/** A made-up machine: a directory holding the executables it "has". */
const dir = mkdtempSync(path.join(tmpdir(), 'veil-prerequisites-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const machine = (platform: NodeJS.Platform, has: string[], env: Record<string, string> = {}): Machine => {
  const bin = mkdtempSync(path.join(dir, 'bin-'));
  for (const name of has) {
    writeFileSync(path.join(bin, name), '#!/bin/sh\n');
    chmodSync(path.join(bin, name), 0o755);
  }
  return { env, platform, searchDirs: [bin], chromiumCandidates: [path.join(bin, 'chromium')] };
};

const everything = ['nats-server', 'redis-server', 'chromium'];
const both = { nats: true, redis: true };

describe('checkPrerequisites', () => {
  it('finds every program and reports no problem when the machine has them', () => {
    const found = checkPrerequisites(both, machine('linux', everything));
    expect(found.problem).toBeUndefined();
    expect([found.natsServer, found.redisServer, found.chromium].map((p) => path.basename(p!))).toEqual(
      everything,
    );
  });

  it('names exactly the missing Debian packages in one apt-get line', () => {
    const { problem } = checkPrerequisites(both, machine('linux', ['redis-server']));
    expect(problem).toContain(
      'need nats-server (NATS with JetStream), Chromium, which this machine does not have',
    );
    expect(problem).toContain('\n  sudo apt-get install nats-server chromium\n');
    expect(problem).not.toContain('brew');
  });

  it('says brew on macOS: formulae, the Chromium cask, or CHROMIUM_PATH for an installed Chrome', () => {
    const { problem } = checkPrerequisites(both, machine('darwin', []));
    expect(problem).toContain('\n  brew install nats-server redis\n  brew install --cask chromium\n');
    expect(problem).toContain(
      'export CHROMIUM_PATH="/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"',
    );
    expect(problem).not.toContain('apt-get');
  });

  it('needs no server binary for a server given by URL', () => {
    expect(
      checkPrerequisites({ nats: false, redis: false }, machine('linux', ['chromium'])).problem,
    ).toBeUndefined();
    expect(
      checkPrerequisites({ nats: false, redis: true }, machine('linux', ['chromium'])).problem,
    ).toContain('sudo apt-get install redis-server\n');
  });

  it('takes CHROMIUM_PATH over the usual places, and says so when it points at nothing', () => {
    const chosen = machine('linux', ['chrome']);
    const chrome = path.join(chosen.searchDirs[0]!, 'chrome');
    expect(
      checkPrerequisites({ nats: false, redis: false }, { ...chosen, env: { CHROMIUM_PATH: chrome } })
        .chromium,
    ).toBe(chrome);
    const wrong = checkPrerequisites(
      { nats: false, redis: false },
      machine('linux', everything, { CHROMIUM_PATH: '/no/such' }),
    );
    expect(wrong.problem).toContain('need Chromium (CHROMIUM_PATH=/no/such is not an executable file)');
  });
});
