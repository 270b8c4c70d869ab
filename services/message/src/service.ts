import { messageRpc } from '@veil/contracts';
import { startProjectedRpcService, type OpenProjection, type RunningProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { scheduleAttachmentSweep } from './handlers/attachment-sweep.ts';
import { scheduleMessageExpiry } from './handlers/message-expiry.ts';
import { ownWrites } from './handlers/own-writes.ts';
import { callPushHandlers } from './handlers/call-push.handlers.ts';
import { pushHandlers } from './handlers/push.handlers.ts';
import { reportHandlers } from './handlers/report.handlers.ts';
import { startPushSender } from './handlers/push-sender.ts';
import { messageRpcHandlers } from './handlers/rpc.handlers.ts';
import { unreadHandlers } from './handlers/unread.handlers.ts';
import { openPushReadModels, pushProjection } from './projections/push.projection.ts';
import { openReadPointModels, readPointProjection } from './projections/read-points.projection.ts';
import { openReportModels, reportProjection } from './projections/reports.projection.ts';
import { openMessageReadModels, timelineProjection } from './projections/timeline.projection.ts';
import { openTimeline } from './projections/timeline-store.ts';
import { defaultAttachmentSettings, defaultExpiryCheckSeconds, type MessageSettings } from './settings.ts';

export type { MessageSettings } from './settings.ts';

/** The timeline's, the read points', the push subscriptions' and the reports' projections, for tools that rebuild them. */
export const openProjection: OpenProjection = async (readStore, log, ports) => [
  timelineProjection(
    await openMessageReadModels(readStore),
    log,
    (await openTimeline(readStore, ports?.messageTimeline)).documents,
  ),
  readPointProjection(await openReadPointModels(readStore)),
  pushProjection(await openPushReadModels(readStore)),
  reportProjection(await openReportModels(readStore)),
];

/**
 * The message service: stores ciphertext only, refuses non-members, records read receipts, keeps
 * unread counts, owns encrypted attachments (who may upload and read them; unsent uploads
 * are swept), expires disappearing messages, owns browsers' push subscriptions and pushes
 * new messages to them, still encrypted, and files the abuse reports it can verify.
 */
export const start: StartService<Partial<MessageSettings>> = async ({ ports, settings }) => {
  const attachmentSettings = settings.attachments ?? defaultAttachmentSettings;
  const models = await openMessageReadModels(ports.readStore);
  // The log's own (embedded mode), or the read model the timeline projection keeps.
  const { messages, documents } = await openTimeline(ports.readStore, ports.messageTimeline);
  const readPointModels = await openReadPointModels(ports.readStore);
  const pushModels = await openPushReadModels(ports.readStore);
  const reportModels = await openReportModels(ports.readStore);
  const log = ports.log.child({ service: 'message' });
  const stopSweep = scheduleAttachmentSweep({
    ...ports,
    store: ports.bus,
    models,
    settings: attachmentSettings,
    log,
  });
  const stopExpiry = scheduleMessageExpiry({
    ...ports,
    store: ports.bus,
    models,
    messages,
    checkSeconds: settings.expiryCheckSeconds ?? defaultExpiryCheckSeconds,
    log,
  });
  const service = await startProjectedRpcService(ports, {
    contract: messageRpc,
    projection: timelineProjection(models, ports.bus, documents),
    companions: [
      readPointProjection(readPointModels),
      pushProjection(pushModels),
      reportProjection(reportModels),
    ],
    handlers: (projection, companions) => {
      const [readPoints, push, reports] = companions as [
        RunningProjection,
        RunningProjection,
        RunningProjection,
      ];
      // The push projection does not follow the message context: it has no part in these reads.
      const written = ownWrites([projection, readPoints], 'message');
      return {
        ...messageRpcHandlers({
          store: ports.bus,
          models,
          messages,
          projection,
          written,
          clock: ports.clock,
          ids: ports.ids,
          blobs: ports.blobs,
          attachmentSettings,
        }),
        ...unreadHandlers({
          models: { ...models, ...readPointModels },
          messages,
          written,
          timeline: projection,
        }),
        ...pushHandlers({
          store: ports.bus,
          models: pushModels,
          projection: push,
          clock: ports.clock,
          ids: ports.ids,
          settings: settings.push,
        }),
        ...callPushHandlers({
          models: { ...pushModels, memberships: models.memberships, blocks: models.blocks },
          settings: settings.push,
          log,
        }),
        ...reportHandlers({
          store: ports.bus,
          models: { ...models, ...reportModels },
          messages,
          timeline: projection,
          reports,
          clock: ports.clock,
          ids: ports.ids,
          rpc: ports.rpc,
          log,
        }),
      };
    },
    onStop: async () => {
      await Promise.all([stopSweep(), stopExpiry()]);
    },
  });
  // Started once the subscriptions are caught up with the log, so the first pushes reach them all.
  const pushSender = settings.push
    ? await startPushSender({
        ...ports,
        models: { ...pushModels, memberships: models.memberships },
        settings: settings.push,
        log,
      }).catch(async (error: unknown) => {
        await service.stop();
        throw error;
      })
    : null;
  return {
    async stop() {
      await pushSender?.stop();
      await service.stop();
    },
  };
};
