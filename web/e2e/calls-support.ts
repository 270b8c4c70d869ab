import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations, useTheme } from './axe.ts';
import { openChat, sayHi, signedUpPerson } from './flows.ts';
import { desktop, phone390 } from './harness.ts';

/**
 * Makes the page keep every RTCPeerConnection it creates, so a test can read the connections'
 * statistics (`bytesReceived`) as `chrome://webrtc-internals` would; the app's calls are not
 * changed.
 */
export const keepPeerConnections = async (page: Page): Promise<void> => {
  await page.addInitScript(() => {
    const Original = window.RTCPeerConnection;
    const made: RTCPeerConnection[] = [];
    (window as unknown as { veilPeerConnections: RTCPeerConnection[] }).veilPeerConnections = made;
    window.RTCPeerConnection = class extends Original {
      constructor(...args: ConstructorParameters<typeof RTCPeerConnection>) {
        super(...args);
        made.push(this);
      }
    } as typeof RTCPeerConnection;
  });
};

/** Media bytes the page's newest connection has received (audio and video). */
export const bytesReceived = (page: Page): Promise<number> =>
  page.evaluate(async () => {
    const made =
      (window as unknown as { veilPeerConnections?: RTCPeerConnection[] }).veilPeerConnections ?? [];
    const pc = made.at(-1);
    if (!pc) return 0;
    let total = 0;
    (await pc.getStats()).forEach((report: { type: string; bytesReceived?: number }) => {
      if (report.type === 'inbound-rtp') total += report.bytesReceived ?? 0;
    });
    return total;
  });

/** What the page's newest connection sends: `kind:enabled` per track, sorted. */
export const senderTracks = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const made =
      (window as unknown as { veilPeerConnections?: RTCPeerConnection[] }).veilPeerConnections ?? [];
    return (made.at(-1)?.getSenders() ?? [])
      .map((sender) => `${sender.track?.kind}:${sender.track?.enabled}`)
      .sort()
      .join(',');
  });

/** The candidate types of the pair the page's newest connection uses (`relay` through TURN). */
export const selectedCandidateTypes = (page: Page): Promise<string[]> =>
  page.evaluate(async () => {
    const made =
      (window as unknown as { veilPeerConnections?: RTCPeerConnection[] }).veilPeerConnections ?? [];
    const pc = made.at(-1);
    if (!pc) return [];
    const stats = await pc.getStats();
    const types: string[] = [];
    stats.forEach(
      (report: {
        type: string;
        nominated?: boolean;
        state?: string;
        localCandidateId?: string;
        remoteCandidateId?: string;
      }) => {
        if (report.type !== 'candidate-pair' || !report.nominated || report.state !== 'succeeded') return;
        for (const id of [report.localCandidateId, report.remoteCandidateId])
          types.push((stats.get(id ?? '') as { candidateType?: string } | undefined)?.candidateType ?? '?');
      },
    );
    return types;
  });

/** Two people with a chat, each page keeping its peer connections, both with the chat open. */
export const callers = async (veil: { newPage(): Promise<Page> }) => {
  const alice = await signedUpPerson(veil, 'cal', keepPeerConnections);
  const bob = await signedUpPerson(veil, 'cbo', keepPeerConnections);
  await sayHi(alice.page, bob.name);
  await openChat(bob.page, alice.name);
  return { alice, bob };
};

export const callPanel = (page: Page) => page.getByTestId('call-panel');
export const incomingCall = (page: Page) => page.getByTestId('incoming-call');
export const callStatus = (page: Page) => page.getByTestId('call-status');

/** Media bytes each of the page's connected connections has received (audio and video), oldest first. */
export const bytesReceivedPerConnection = (page: Page): Promise<number[]> =>
  page.evaluate(async () => {
    const made =
      (window as unknown as { veilPeerConnections?: RTCPeerConnection[] }).veilPeerConnections ?? [];
    const received: number[] = [];
    for (const pc of made) {
      if (pc.connectionState !== 'connected') continue;
      let total = 0;
      (await pc.getStats()).forEach((report: { type: string; bytesReceived?: number }) => {
        if (report.type === 'inbound-rtp') total += report.bytesReceived ?? 0;
      });
      received.push(total);
    }
    return received;
  });

/** Axe's findings on a call screen in both themes, at desktop and phone widths, each named by `state`. */
export const auditCallScreen = async (page: Page, state: string): Promise<string[]> => {
  const found: string[] = [];
  for (const size of [desktop, phone390]) {
    await page.setViewportSize(size);
    for (const theme of ['light', 'dark'] as const) {
      await useTheme(page, theme);
      for (const violation of await axeViolations(page))
        found.push(`${state}, ${theme}, ${size.width}px: ${violation.id} ${violation.targets.join(' ')}`);
    }
  }
  await page.setViewportSize(desktop);
  return found;
};

/** The call button named `name` fits the chat header's one row on a phone. */
export const expectCallButtonInHeaderRow = async (page: Page, name: string): Promise<void> => {
  await page.setViewportSize(phone390);
  const header = await page.locator('.chat-header').boundingBox();
  const call = await page.getByRole('button', { name }).boundingBox();
  expect(call!.y + call!.height).toBeLessThanOrEqual(header!.y + header!.height);
  expect(call!.x + call!.width).toBeLessThanOrEqual(phone390.width);
  await page.setViewportSize(desktop);
};

/** The track the page's newest connection sends of `kind`: its id and the device's label. */
export const sentTrack = (
  page: Page,
  kind: 'audio' | 'video',
): Promise<{ id: string; label: string } | null> =>
  page.evaluate((wanted) => {
    const made =
      (window as unknown as { veilPeerConnections?: RTCPeerConnection[] }).veilPeerConnections ?? [];
    const track = made
      .at(-1)
      ?.getSenders()
      .map((sender) => sender.track)
      .find((candidate) => candidate?.kind === wanted);
    return track ? { id: track.id, label: track.label } : null;
  }, kind);

/** Media bytes of `kind` the page's newest connection has received. */
export const bytesReceivedOf = (page: Page, kind: 'audio' | 'video'): Promise<number> =>
  page.evaluate(async (wanted) => {
    const made =
      (window as unknown as { veilPeerConnections?: RTCPeerConnection[] }).veilPeerConnections ?? [];
    const pc = made.at(-1);
    if (!pc) return 0;
    let total = 0;
    (await pc.getStats()).forEach((report: { type: string; kind?: string; bytesReceived?: number }) => {
      if (report.type === 'inbound-rtp' && report.kind === wanted) total += report.bytesReceived ?? 0;
    });
    return total;
  }, kind);

/**
 * Waits until the page's newest connection has received `atLeast` more media bytes (of `kind`,
 * or of both kinds): media keeps flowing to that side.
 */
export const mediaKeepsFlowing = async (
  page: Page,
  { kind, atLeast = 2_000 }: { kind?: 'audio' | 'video'; atLeast?: number } = {},
) => {
  const received = () => (kind ? bytesReceivedOf(page, kind) : bytesReceived(page));
  const before = await received();
  await expect.poll(received, { timeout: 30_000, interval: 250 }).toBeGreaterThan(before + atLeast);
};

/** The ICE username fragment of the page's newest connection's local description: an ICE restart changes it. */
export const iceUfrag = (page: Page): Promise<string | null> =>
  page.evaluate(() => {
    const made =
      (window as unknown as { veilPeerConnections?: RTCPeerConnection[] }).veilPeerConnections ?? [];
    return /a=ice-ufrag:(\S+)/.exec(made.at(-1)?.localDescription?.sdp ?? '')?.[1] ?? null;
  });

/** How many peer connections the page has made so far. */
export const connectionsMade = (page: Page): Promise<number> =>
  page.evaluate(
    () =>
      ((window as unknown as { veilPeerConnections?: RTCPeerConnection[] }).veilPeerConnections ?? []).length,
  );
