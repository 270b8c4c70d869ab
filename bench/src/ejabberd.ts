import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import type { DeliveryOptions, DeliveryTarget } from './delivery.ts';
import { openXmppSession, type XmppSession } from './xmpp.ts';

/**
 * ejabberd (Debian's package) as a peer: the chat server a user might pick instead, driven by the
 * same generator as Veil and the relays. It runs on loopback from a config generated into a temp
 * dir of the run's own (bench/ejabberd/ejabberd.yml.template: its own port, Mnesia in the temp
 * dir), accounts are registered through its HTTP API, and clients speak XMPP over WebSocket in
 * one-to-one pairs with 600-byte bodies. Where it is not installed or cannot start, the peer is
 * skipped with the reason.
 */
export interface EjabberdProcess {
  wsUrl: string;
  apiUrl: string;
  /** The ejabberdctl that runs it in the foreground; the Erlang VM is its descendant (for CPU). */
  pid: number;
  stop(): Promise<void>;
}

const ctl = '/usr/sbin/ejabberdctl';
const template = path.resolve(import.meta.dirname, '../ejabberd/ejabberd.yml.template');
/** Debian's ejabberdctl runs the server as this user, and refuses anyone but it and root. */
const serviceUser = 'ejabberd';

/** Why ejabberd cannot run here, or null when it can. */
export const ejabberdUnavailable = (): string | null => {
  if (!existsSync(ctl)) return `${ctl} not found (Debian: apt-get install ejabberd)`;
  const user = userInfo().username;
  if (user !== 'root' && user !== serviceUser)
    return `Debian's ejabberdctl runs only as root or ${serviceUser}, not ${user}`;
  return null;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const startEjabberd = async (port: number): Promise<EjabberdProcess> => {
  const dir = await mkdtemp(path.join(tmpdir(), 'veil-bench-ejabberd-'));
  const node = `veilbench${port}@localhost`;
  const args = ['--config-dir', dir, '--logs', dir, '--spool', dir, '--node', node];
  await writeFile(
    path.join(dir, 'ejabberd.yml'),
    (await readFile(template, 'utf8')).replaceAll('{{PORT}}', String(port)),
  );
  await writeFile(
    path.join(dir, 'ejabberdctl.cfg'),
    `ERL_OPTIONS="-env ERL_CRASH_DUMP_BYTES 0"\nEJABBERD_PID_PATH=${dir}/ejabberd.pid\n`,
  );
  await copyFile('/etc/ejabberd/inetrc', path.join(dir, 'inetrc')).catch(() => undefined);
  // As root, ejabberdctl would switch to the ejabberd user through `su`, whose session allows
  // 1,024 open files: too few for a thousand clients. Switching with `setpriv` keeps this
  // process's limits (no login session), and ejabberdctl then runs as it is.
  let command = [ctl];
  const env = { ...process.env };
  if (userInfo().username === 'root') {
    const { uid, gid } = statSync('/var/lib/ejabberd');
    for (const file of ['', 'ejabberd.yml', 'ejabberdctl.cfg', 'inetrc'])
      await chown(path.join(dir, file), uid, gid).catch(() => undefined);
    command = ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--init-groups', ctl];
    env.HOME = '/var/lib/ejabberd';
  }
  const run = (more: string[]) => [command[0]!, [...command.slice(1), ...args, ...more]] as const;
  const child = spawn(...run(['foreground']), { stdio: 'ignore', detached: true, env });
  const apiUrl = `http://127.0.0.1:${port}/api`;
  const stop = async () => {
    spawnSync(...run(['stop']), { stdio: 'ignore', timeout: 30_000, env });
    const exited =
      child.exitCode !== null ||
      (await Promise.race([
        new Promise((resolve) => child.once('exit', () => resolve(true))),
        sleep(10_000).then(() => false),
      ]));
    // Its process group is the one this run started (detached above).
    if (!exited) process.kill(-child.pid!, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await fetch(`${apiUrl}/status`, { method: 'POST', body: '{}' }).catch(() => undefined);
    // Any answer from the HTTP listener means it is up (the status command itself is not allowed).
    if (answer) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      const log = await readFile(path.join(dir, 'ejabberd.log'), 'utf8').catch(() => '');
      await stop();
      throw new Error(`ejabberd did not start:\n${log.slice(-2000)}`);
    }
    await sleep(200);
  }
  return { wsUrl: `ws://127.0.0.1:${port}/ws`, apiUrl, pid: child.pid!, stop };
};

const domain = 'localhost';
const password = 'bench-password';

/** ejabberd as a delivery target: one-to-one pairs only, 600-byte bodies, no send acknowledgement. */
export const ejabberdTarget = async (
  server: EjabberdProcess,
  options: DeliveryOptions,
): Promise<DeliveryTarget> => {
  const run = Date.now().toString(36);
  const users = Array.from({ length: Math.floor(options.users / 2) * 2 }, (_, i) => `b${run}u${i}`);
  for (let i = 0; i < users.length; i += 8) {
    await Promise.all(
      users.slice(i, i + 8).map(async (user) => {
        const res = await fetch(`${server.apiUrl}/register`, {
          method: 'POST',
          body: JSON.stringify({ user, host: domain, password }),
        });
        if (!res.ok) throw new Error(`ejabberd register ${user}: ${res.status} ${await res.text()}`);
      }),
    );
  }
  const conversations = Array.from({ length: users.length / 2 }, (_, c) => ({
    sender: 2 * c,
    recipient: 2 * c + 1,
  }));
  const senders = new Map<number, XmppSession>();
  for (const { sender } of conversations)
    senders.set(sender, await openXmppSession({ url: server.wsUrl, domain, user: users[sender]!, password }));
  // 450 random bytes in base64: a 600-byte body, Veil's payload size for a pair.
  const body = randomBytes(450).toString('base64');
  let next = 0;
  return {
    conversations: conversations.length,
    recipients: (c) => [conversations[c]!.recipient],
    receiverSpec: (user) => ({
      url: server.wsUrl,
      auth: {},
      event: 'message',
      idPath: ['id'],
      xmpp: { domain, user: users[user]!, password },
    }),
    // XMPP acknowledges no single message (without stream management): a send counts once written.
    send: async (c) => {
      const id = `x${(next++).toString(36)}`;
      senders
        .get(conversations[c]!.sender)!
        .sendMessage(`${users[conversations[c]!.recipient]}@${domain}`, id, body);
      return id;
    },
    close: () => senders.forEach((session) => session.close()),
  };
};
