import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { logFormat } from '../src/logger.ts';

/**
 * What `veil` prints, in each LOG_FORMAT: the process is started as `npm start` starts it (one
 * service is enough), stopped with SIGTERM, and its stdout read line by line.
 */
const veilEntry = path.resolve(import.meta.dirname, '../src/bin/veil.ts');

const runVeil = async (logFormatSetting: string | undefined): Promise<string[]> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veil-logs-'));
  // Plain text, whatever the terminal this run started from: colours would only get in the way here.
  const { LOG_FORMAT: _format, FORCE_COLOR: _color, ...env } = process.env;
  const child = spawn(process.execPath, [veilEntry], {
    env: {
      ...env,
      ...(logFormatSetting ? { LOG_FORMAT: logFormatSetting } : {}),
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      VEIL_SERVICES: 'user',
      LOG_LEVEL: 'info',
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    if (line.includes('Veil is running')) child.kill('SIGTERM');
  });
  try {
    expect(await closed, lines.join('\n')).toBe(0);
    return lines;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
};

describe('logs', () => {
  it('are JSON objects, one a line, with LOG_FORMAT=json', async () => {
    const entries = (await runVeil('json')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toContainEqual(
      expect.objectContaining({ level: 30, service: 'user', msg: 'service started' }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({
        services: ['user'],
        msg: expect.stringMatching(/^Veil is running on http:\/\/127\.0\.0\.1:\d+$/),
      }),
    );
    expect(entries).toContainEqual(expect.objectContaining({ signal: 'SIGTERM', msg: 'shutting down' }));
  }, 30_000);

  it('are readable lines with LOG_FORMAT=pretty: time, level, service, message, then other fields', async () => {
    const lines = await runVeil('pretty');
    expect(lines).toContainEqual(
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[user\] service started$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Veil is running on http:\/\/127\.0\.0\.1:\d+ \{"services":\["user"\]\}$/,
      ),
    );
    expect(lines.some((line) => line.startsWith('{'))).toBe(false);
  }, 30_000);

  it('are JSON when stdout is not a terminal and no format is set', async () => {
    const lines = await runVeil(undefined);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  }, 30_000);

  it('follow the terminal only when LOG_FORMAT is auto', () => {
    expect([logFormat('auto', true), logFormat('auto', false)]).toEqual(['pretty', 'json']);
    expect([logFormat('json', true), logFormat('pretty', false)]).toEqual(['json', 'pretty']);
  });
});
