import {
  callSignalBudget,
  defaultWritesPerUserPerMinute,
  DomainError,
  limits,
  messageRpc,
  userWriteBudget,
} from '@veil/contracts';
import { measureProjection, rpcClient } from '@veil/kernel';
import type { RunningService, ServiceContext } from '@veil/ports';
import { createAccessTokenVerifier, followSessionRevocations } from '@veil/tokens';
import { Server, type ServerOptions } from 'socket.io';
import { authenticate, originCheck } from './auth.middleware.ts';
import { onConnection } from './connection.ts';
import { startFanout } from './fanout.ts';
import { SendingSockets } from './sending-sockets.ts';
import { startProfileUpdates } from './profile-updates.ts';
import { announceGroupChange } from './group-changes.ts';
import { attachToHttp } from './http-attach.ts';
import { createLinkChannel } from './links/link-channel.ts';
import type { MembershipChange } from './membership.map.ts';
import { startMembershipProjection } from './membership.projection.ts';
import { startPrivacyProjection } from './privacy.projection.ts';
import { createCallPusher } from './calls/call-push.ts';
import { createPresence, type Presence } from './presence.ts';
import { realtimeMetrics } from './realtime-metrics.ts';
import { defaultPresenceTtlSeconds, type RealtimeSettings } from './settings.ts';
import { userRoom, type RealtimeServer } from './socket-types.ts';

export type { RealtimeSettings } from './settings.ts';

/**
 * Largest client packet: a `send message` to a full group (the largest ciphertext and one
 * wrapped key per member), with room to spare; a batch of 500 seen reports is far smaller.
 */
const maxPacketBytes =
  limits.messageCiphertextMaxChars + limits.groupMaxMembers * (limits.wrappedKeyMaxChars + 64) + 4096;

/**
 * The realtime gateway: Socket.IO on the process's HTTP server (websocket only), identity from
 * the access token, delivery from persisted events, presence per contact. With the Redis
 * scaling adapter (`ports.realtimeScaling`, chosen by the runtime) any number of replicas share
 * rooms and presence; with the memory one, one node keeps everything. Nothing else branches on it.
 */
export const start = async (ctx: ServiceContext<RealtimeSettings>): Promise<RunningService> => {
  const { ports, settings } = ctx;
  if (!ctx.http) throw new DomainError('UNAVAILABLE', 'The realtime gateway needs an HTTP server');
  const http = ctx.http;
  const log = ports.log.child({ service: 'realtime', instanceId: settings.instanceId });
  const now = () => ports.clock.now().getTime();
  const revocations = await followSessionRevocations(ports.bus, log);
  const verify = await createAccessTokenVerifier(settings.accessTokenPublicJwk, {
    isRevoked: revocations.isRevoked,
  });
  const messages = rpcClient(ports.rpc, messageRpc);
  const metrics = realtimeMetrics(ports.metrics);

  // Several replicas share broadcasts and presence through these (Redis); one alone needs neither.
  const adapter = (await ports.realtimeScaling.socketAdapter()) as ServerOptions['adapter'] | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.reverse()) {
      await Promise.resolve()
        .then(cleanup)
        .catch((error: unknown) => log.warn({ err: error }, 'realtime shutdown step failed'));
    }
    cleanups.length = 0;
  };
  cleanups.push(() => revocations.stop());

  try {
    const io: RealtimeServer = new Server({
      path: '/socket.io',
      transports: ['websocket'],
      allowUpgrades: false,
      serveClient: false,
      maxHttpBufferSize: maxPacketBytes,
      // A replica that dies without closing its sockets (kill -9, a frozen process, a lost
      // network) is noticed by its clients only through missed heartbeats: at Socket.IO's
      // defaults (25 s + 20 s) they sat on a dead socket for up to 45 s. 5 s + 5 s brings them
      // back through another replica within about 10 s, for one small packet per socket each 5 s.
      pingInterval: 5_000,
      pingTimeout: 5_000,
      allowRequest: originCheck(settings.allowedOrigins),
      ...(adapter ? { adapter } : {}),
    });
    io.of('/').adapter.on('error', (error: unknown) => log.error({ err: error }, 'socket.io adapter error'));
    cleanups.push(async () => {
      // Closing the adapter unsubscribes its Redis channels; the HTTP server stays up for others.
      await io.of('/').adapter.close();
      io.engine?.close();
    });

    // Membership changes after start introduce newly related users (no sockets exist before presence does).
    const late: { presence?: Presence } = {};
    const membership = await startMembershipProjection({
      bus: ports.bus,
      log,
      onChange: (change: MembershipChange) => {
        announceGroupChange(io, change);
        if (change.added.length)
          late.presence
            ?.membersJoined(change)
            .catch((error: unknown) => log.warn({ err: error }, 'presence intro failed'));
      },
      // The account's other browsers fetch their chat list again. Every replica follows the chat
      // log, so each tells its own sockets.
      onListPrefsChange: (userId, chatId) => io.local.to(userRoom(userId)).emit('chat updated', { chatId }),
    });
    cleanups.push(() => membership.stop());

    const privacy = await startPrivacyProjection({
      bus: ports.bus,
      log,
      onChange: (userId, before, after) => {
        if (before.onlineVisibleTo !== after.onlineVisibleTo)
          late.presence
            ?.visibilityChanged(userId, after.onlineVisibleTo === 'contacts')
            .catch((error: unknown) => log.warn({ err: error }, 'presence visibility change failed'));
      },
      // The account's other browsers fetch its block list again (each replica tells its own sockets).
      onBlocksChange: (userId) => io.local.to(userRoom(userId)).emit('blocks updated'),
    });
    cleanups.push(() => privacy.stop());

    const store = await ports.realtimeScaling.presence({
      instanceId: settings.instanceId,
      ttlSeconds: settings.presenceTtlSeconds ?? defaultPresenceTtlSeconds,
      now,
      log,
    });
    const livePresence = createPresence({
      io,
      store,
      membership,
      visible: (userId) => privacy.of(userId).onlineVisibleTo === 'contacts',
      now,
    });
    late.presence = livePresence;
    await livePresence.start();
    cleanups.push(() => livePresence.stop());

    const sendingSockets = new SendingSockets();
    const fanout = await startFanout({
      bus: ports.bus,
      io,
      membership,
      messages,
      log,
      tracing: ports.tracing,
      metrics,
      sendsReceipts: (userId) => privacy.of(userId).readReceipts,
      sendingSockets,
    });
    cleanups.push(() => fanout.stop());
    const profileUpdates = await startProfileUpdates({ bus: ports.bus, io, membership, log });
    cleanups.push(() => profileUpdates.stop());
    const fanoutLag = measureProjection(ports, { name: 'realtime_fanout', contexts: ['message'] }, fanout);
    cleanups.push(() => fanoutLag.stop());
    cleanups.push(metrics.countSockets(() => io.of('/').sockets.size));

    const links = createLinkChannel({
      io,
      records: await ports.realtimeScaling.records('link'),
      ttlMs: (settings.linkTtlSeconds ?? limits.linkTtlSeconds) * 1000,
      now,
      log,
    });

    let accepting = true;
    const auth = authenticate(verify, log);
    io.use((socket, next) => {
      if (!accepting)
        return next(Object.assign(new Error('Shutting down'), { data: { code: 'UNAVAILABLE' } }));
      auth(socket, next);
    });
    io.on(
      'connection',
      onConnection({
        io,
        membership,
        presence: livePresence,
        messages,
        writes: ports.rateLimits.limit(
          userWriteBudget(settings.writesPerUserPerMinute ?? defaultWritesPerUserPerMinute),
        ),
        callSignals: ports.rateLimits.limit(callSignalBudget),
        callPusher: createCallPusher({
          presence: store,
          claims: await ports.realtimeScaling.records('call-push'),
          messages,
          log,
        }),
        log,
        now,
        tracing: ports.tracing,
        metrics,
        links,
        showsTyping: (userId) => privacy.of(userId).typing,
        sendingSockets,
      }),
    );
    // An ended session's sockets go at once, not when their token expires.
    const stopDropping = revocations.onRevoked(({ sessionId }) => {
      for (const socket of io.of('/').sockets.values()) {
        if (socket.data.sessionId !== sessionId) continue;
        socket.emit('error', {
          code: 'TOKEN_REVOKED',
          message: 'This session has ended; please log in again',
        });
        socket.disconnect(true);
      }
    });
    cleanups.push(stopDropping);
    const detach = attachToHttp(io, http.server);
    cleanups.push(async () => {
      accepting = false;
      // Disconnect handlers count presence down and announce `offline` while the adapter still runs.
      io.local.disconnectSockets(true);
      detach();
    });
    log.info({ sharedAdapter: Boolean(adapter) }, 'realtime gateway started');

    return {
      async stop() {
        await cleanUp();
        log.info('realtime gateway stopped');
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
};
