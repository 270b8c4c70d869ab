import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Finds the programs the e2e tier runs (nats-server and redis-server unless NATS_URL / REDIS_URL
 * name running servers, and Chromium for the browser tests) and, for whatever is missing, says in
 * one message what to install and how.
 */
export interface Prerequisites {
  natsServer?: string;
  redisServer?: string;
  chromium?: string;
  /** Why the run cannot start, or undefined when everything is there. */
  problem?: string;
}

type Env = Record<string, string | undefined>;

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** Debian puts nats-server in /usr/sbin, which is not on a normal user's PATH. */
const extraDirs = ['/usr/sbin', '/usr/local/sbin', '/sbin', '/usr/local/bin', '/opt/homebrew/bin'];

const findExecutable = (name: string, dirs: string[]): string | undefined =>
  dirs.map((dir) => path.join(dir, name)).find(isExecutable);

const knownChromiumPaths: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
  ],
  darwin: [
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ],
};

interface Missing {
  what: string;
  debian: string;
  /** Homebrew formula, or undefined for Chromium (a cask, or an installed Chrome). */
  brew?: string;
}

const howToInstall = (missing: Missing[], platform: NodeJS.Platform): string[] => {
  if (platform !== 'darwin') return [`  sudo apt-get install ${missing.map((m) => m.debian).join(' ')}`];
  const formulae = missing.flatMap((m) => (m.brew ? [m.brew] : []));
  return [
    ...(formulae.length ? [`  brew install ${formulae.join(' ')}`] : []),
    ...(missing.some((m) => !m.brew)
      ? [
          '  brew install --cask chromium',
          '  (or an installed Chrome: export CHROMIUM_PATH="/Applications/Google Chrome.app/Contents/MacOS/Google Chrome")',
        ]
      : []),
  ];
};

/** Where to look; a test passes its own. */
export interface Machine {
  env: Env;
  platform: NodeJS.Platform;
  /** Directories searched for nats-server and redis-server. */
  searchDirs: string[];
  /** Where Chromium is looked for when CHROMIUM_PATH is not set. */
  chromiumCandidates: string[];
}

export const thisMachine = (): Machine => ({
  env: process.env,
  platform: process.platform,
  searchDirs: [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...extraDirs],
  chromiumCandidates: knownChromiumPaths[process.platform] ?? [],
});

export const checkPrerequisites = (
  needs: { nats: boolean; redis: boolean },
  { env, platform, searchDirs, chromiumCandidates }: Machine = thisMachine(),
): Prerequisites => {
  const found: Prerequisites = {};
  const missing: Missing[] = [];
  if (needs.nats) {
    found.natsServer = findExecutable('nats-server', searchDirs);
    if (!found.natsServer)
      missing.push({ what: 'nats-server (NATS with JetStream)', debian: 'nats-server', brew: 'nats-server' });
  }
  if (needs.redis) {
    found.redisServer = findExecutable('redis-server', searchDirs);
    if (!found.redisServer) missing.push({ what: 'redis-server', debian: 'redis-server', brew: 'redis' });
  }
  let chromiumNote = '';
  if (env.CHROMIUM_PATH) {
    if (isExecutable(env.CHROMIUM_PATH)) found.chromium = env.CHROMIUM_PATH;
    else chromiumNote = ` (CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file)`;
  } else {
    found.chromium = chromiumCandidates.find(isExecutable);
  }
  if (!found.chromium) missing.push({ what: `Chromium${chromiumNote}`, debian: 'chromium' });
  if (missing.length === 0) return found;
  return {
    ...found,
    problem: [
      `The e2e tests need ${missing.map((m) => m.what).join(', ')}, which this machine does not have. Install:`,
      ...howToInstall(missing, platform),
      'Or point the tests at what you have: NATS_URL and REDIS_URL select running servers, CHROMIUM_PATH a Chromium or Chrome binary.',
    ].join('\n'),
  };
};
