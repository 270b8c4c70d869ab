/**
 * The only file of this service that imports adapters: tests need a real bus and RPC to run the
 * gateway against, built the way @veil/app builds them. Production code never imports it
 * (see docs/realtime.md, "Tests", for the dependency-cruiser exception this file needs).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEmbeddedBus, createEmbeddedRpc } from '@veil/bus-embedded';
import { connectNats, createNatsBus, createNatsRpc } from '@veil/bus-nats';
import { contexts, jetStreamName } from '@veil/contracts';
import type { EventBus, Logger, Rpc } from '@veil/ports';
import { natsUrl } from '@veil/test-env';
import { ulid } from 'ulid';

export interface TestBusPorts {
  bus: EventBus;
  rpc: Rpc;
  close(): Promise<void>;
}

/** The embedded bus in a fresh temp dir (removed on close) with the in-process RPC. */
export const embeddedPorts = async (log: Logger): Promise<TestBusPorts> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veil-realtime-'));
  const bus = await createEmbeddedBus({ dataDir, log });
  const rpc = createEmbeddedRpc({ log });
  return {
    bus,
    rpc,
    async close() {
      await bus.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

/** A stream/subject prefix per test run, so parallel runs never share streams or consumers. */
export const randomNatsPrefix = (): string => `t${ulid().toLowerCase()}`;

/** One NATS connection with a bus and an RPC on it: what one process of the cluster holds. */
export const natsPorts = async (
  prefix: string,
  log: Logger,
  name: string,
): Promise<TestBusPorts & { dropStreams(): Promise<void> }> => {
  const connection = await connectNats({ servers: natsUrl(), name });
  const bus = await createNatsBus({ connection, prefix, log });
  const rpc = createNatsRpc({ connection, prefix, log });
  return {
    bus,
    rpc,
    async close() {
      await bus.close();
      await connection.drain();
    },
    /** Deletes this run's streams (and with them its consumers) through the JetStream API. */
    async dropStreams() {
      for (const context of contexts) {
        await connection
          .request(`$JS.API.STREAM.DELETE.${jetStreamName(prefix, context)}`)
          .catch(() => undefined);
      }
    },
  };
};
