import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClientToServerEvents, ServerToClientEvents } from '@veil/contracts';
import { buildGroupPayload, exportPublicKeySpkiBase64, generateUserKeyPair } from '@veil/crypto';
import { startVeil } from '@veil/app';
import { io, type Socket } from 'socket.io-client';
import { round, summarize } from './stats.ts';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Kind = 'message' | 'edit' | 'reaction' | 'delete';
const noticeOf: Record<Kind, keyof ServerToClientEvents> = {
  message: 'message received',
  edit: 'message edited',
  reaction: 'reaction',
  delete: 'message deleted',
};

interface Member {
  id: string;
  token: string;
  keys: CryptoKeyPair;
  socket: ClientSocket;
}

/**
 * What a change to a message costs next to the message itself, in a group of five on the
 * embedded app: for each kind (a send, an edit, a reaction, a delete for everyone), `count`
 * operations one after another (encrypted beforehand), over HTTP and then over the socket, each
 * timed from the request until every other member's socket has its event; the process's CPU per operation (the server
 * and these HTTP and socket clients together); and the size of what each recipient receives.
 */
export const runChangesBench = async (count: number) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veil-changes-'));
  // One author makes every send, edit and delete: past the default write budget of 600 a minute.
  const veil = await startVeil({ dataDir, env: { WRITES_PER_USER_PER_MINUTE: '100000' } });
  const members: Member[] = [];
  try {
    const call = async <T = unknown>(
      method: string,
      url: string,
      token: string | null,
      body?: unknown,
    ): Promise<T> => {
      const response = await fetch(`${veil.url}/api/v1/${url}`, {
        method,
        headers: {
          ...(token && { authorization: `Bearer ${token}` }),
          ...(body !== undefined && !(body instanceof FormData) && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: body instanceof FormData ? body : JSON.stringify(body) }),
      });
      const parsed = (await response.json()) as { data: T };
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(parsed)}`);
      return parsed.data;
    };
    for (let i = 0; i < 5; i++) {
      const keys = await generateUserKeyPair();
      const username = `bench${i}${Date.now().toString(36)}`;
      const form = new FormData();
      form.append('username', username);
      form.append('password', 'correct horse battery');
      form.append('publicKey', await exportPublicKeySpkiBase64(keys.publicKey));
      await call('POST', 'user/register', null, form);
      const { user } = await call<{ user: { accesstoken: string; loggedUser: { _id: string } } }>(
        'POST',
        'user/login',
        null,
        { username, password: 'correct horse battery' },
      );
      const socket: ClientSocket = io(veil.url, {
        transports: ['websocket'],
        auth: { token: user.accesstoken },
        extraHeaders: { origin: veil.url },
      });
      await new Promise((resolve) => socket.once('connect', () => resolve(undefined)));
      members.push({ id: user.loggedUser._id, token: user.accesstoken, keys, socket });
    }
    const [author, reactor] = members as [Member, Member];
    const group = await call<{ _id: string }>('POST', 'chat/creategroupchat', author.token, {
      groupName: 'bench',
      participants: members.slice(1).map((m) => m.id),
    });
    const keys = Object.fromEntries(members.map((m) => [m.id, m.keys.publicKey]));

    const measure = async (kind: Kind, actor: Member, operate: (i: number) => Promise<string>) => {
      const arrived = new Map<string, number>();
      const sizes: number[] = [];
      const waiting = new Map<string, () => void>();
      const others = members.filter((m) => m !== actor);
      const listeners = others.map((member) => {
        const listener = (notice: { messageId?: string; message?: { _id: string } }) => {
          const id = notice.messageId ?? notice.message!._id;
          sizes.push(JSON.stringify(notice).length);
          const seen = (arrived.get(id) ?? 0) + 1;
          arrived.set(id, seen);
          if (seen === others.length) waiting.get(id)?.();
        };
        member.socket.on(noticeOf[kind] as 'message deleted', listener as never);
        return () => member.socket.off(noticeOf[kind] as 'message deleted', listener as never);
      });
      const samples: number[] = [];
      const cpuBefore = process.cpuUsage();
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        let settle!: () => void;
        const done = new Promise<void>((resolve) => (settle = resolve));
        const id = await operate(i);
        waiting.set(id, settle);
        if ((arrived.get(id) ?? 0) < others.length) await done;
        samples.push(performance.now() - started);
      }
      const cpu = process.cpuUsage(cpuBefore);
      for (const stop of listeners) stop();
      const { p50, p99 } = summarize(samples);
      return {
        kind,
        p50Ms: round(p50),
        p99Ms: round(p99),
        cpuMsPerOperation: round((cpu.user + cpu.system) / 1000 / count),
        bytesPerRecipient: Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length),
      };
    };

    // Encrypted before the clock starts: the browser's work is not the server's.
    const sealed = (text: (i: number) => string) =>
      Promise.all(Array.from({ length: count }, (_, i) => buildGroupPayload(text(i), keys)));
    const [messages, edits, reactions] = [
      await sealed((i) => `message ${i}`),
      await sealed((i) => `edited ${i}`),
      await sealed(() => '👍'),
    ];
    /** Each kind over one way: HTTP calls, or the socket commands the web app uses while connected. */
    const measureOver = async (over: 'http' | 'socket') => {
      const sent: string[] = [];
      const acked = async <T>(
        reply: Promise<{ ok: true; data: T } | { ok: false; error: { message: string } }>,
      ) => {
        const answer = await reply;
        if (!answer.ok) throw new Error(answer.error.message);
        return answer.data;
      };
      const ask = (member: Member) => member.socket.timeout(10_000);
      const reactionBody = (i: number) => {
        const { encryptedMessage, iv, encryptedKeys } = reactions[i]!;
        return { encryptedReaction: encryptedMessage, iv, encryptedKeys };
      };
      const editBody = (i: number) => {
        const { encryptedMessage, iv, encryptedKeys } = edits[i]!;
        return { encryptedMessage, iv, encryptedKeys };
      };
      const rows = [
        await measure('message', author, async (i) => {
          const payload = messages[i]!;
          const id =
            over === 'http'
              ? (
                  await call<{ message: { _id: string } }>(
                    'POST',
                    `message/sendGroupMessage/${group._id}`,
                    author.token,
                    payload,
                  )
                ).message._id
              : (
                  await acked<{ _id: string }>(
                    ask(author).emitWithAck('send message', { chatId: group._id, ...payload }),
                  )
                )._id;
          sent.push(id);
          return id;
        }),
        await measure('edit', author, async (i) => {
          const messageId = sent[i]!;
          if (over === 'http') await call('PUT', `message/${messageId}`, author.token, editBody(i));
          else await acked(ask(author).emitWithAck('edit message', { messageId, ...editBody(i) }));
          return messageId;
        }),
        await measure('reaction', reactor, async (i) => {
          const messageId = sent[i]!;
          if (over === 'http')
            await call('PUT', `message/${messageId}/reaction`, reactor.token, reactionBody(i));
          else await acked(ask(reactor).emitWithAck('react to message', { messageId, ...reactionBody(i) }));
          return messageId;
        }),
        await measure('delete', author, async (i) => {
          const messageId = sent[i]!;
          if (over === 'http') await call('DELETE', `message/${messageId}?for=everyone`, author.token);
          else await acked(ask(author).emitWithAck('delete message', { messageId, for: 'everyone' }));
          return messageId;
        }),
      ];
      return rows.map((row) => ({ over, ...row }));
    };
    const rows = [...(await measureOver('http')), ...(await measureOver('socket'))];
    return rows;
  } finally {
    for (const member of members) member.socket.close();
    await veil.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runChangesBench(Number(process.argv[2] ?? 200)).then(
    (rows) => {
      console.log(
        'Changes to a message next to the message (group of 5, embedded, one at a time, over HTTP and the socket)',
      );
      console.table(rows);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
