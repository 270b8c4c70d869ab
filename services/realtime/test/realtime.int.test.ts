import { startFakeMessageService } from './support/fake-message-service.ts';
import {
  linkTtlSeconds,
  newTokenKeys,
  startRealtimeNode,
  testOrigin,
  type RealtimeCluster,
} from './support/harness.ts';
import { describeRealtimeSuite } from './support/realtime.suite.ts';
import { describeQuotesFromBeforeStart } from './support/suite-quotes-before-start.ts';
import { embeddedPorts } from './support/test-adapters.ts';
import { testLogger } from './support/test-logger.ts';

/** One node, embedded bus and RPC, Socket.IO's in-memory adapter and in-memory presence. */
describeRealtimeSuite(
  'realtime gateway, single node (embedded bus, memory adapter)',
  async (): Promise<RealtimeCluster> => {
    const log = testLogger();
    const { bus, rpc, close } = await embeddedPorts(log);
    const keys = await newTokenKeys();
    const messageService = await startFakeMessageService(bus, rpc);
    const node = await startRealtimeNode({
      bus,
      rpc,
      log,
      settings: {
        allowedOrigins: [testOrigin],
        accessTokenPublicJwk: keys.publicJwk,
        instanceId: 'single',
        linkTtlSeconds,
      },
    });
    return {
      nodes: [node.url],
      bus,
      keys,
      messageService,
      async teardown() {
        await node.stop();
        await messageService.stop();
        await close();
      },
    };
  },
);

describeQuotesFromBeforeStart('realtime gateway, single node, a quote from before it started', embeddedPorts);
