import type { CallSignalBody, CallSignalFailure, SealedCallSignal } from '../src/index.ts';
import { assert, type CryptoCase, type CryptoModule } from './suite-kit.ts';

/** Sealed, signed call signals: what holds, and every way a server could try to change one. */
export const callSignalCases = (c: CryptoModule): CryptoCase[] => {
  const personOf = async (userId: string) => {
    const [encryption, signing] = await Promise.all([c.generateUserKeyPair(), c.generateSigningKeyPair()]);
    return {
      userId,
      encryption,
      signingKey: await c.nonExtractableSigningKey(signing.privateKey),
      signingPublic: await c.exportPublicKeySpkiBase64(signing.publicKey),
    };
  };
  const fingerprint =
    'sha-256 AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89';
  const otherFingerprint = fingerprint.replace('AB:CD', '00:11');
  const sdpWith = (fp: string) =>
    `v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=fingerprint:${fp.toLowerCase()}\r\n`;
  const setUp = async () => {
    const [alice, bob, mallory] = await Promise.all(['alice', 'bob', 'mallory'].map(personOf));
    const routing = { from: alice!.userId, to: bob!.userId, chatId: 'chat1', callId: 'a'.repeat(32) };
    const body: CallSignalBody = {
      ...routing,
      kind: 'offer',
      media: 'video',
      sentAt: new Date().toISOString(),
      sdp: sdpWith(fingerprint),
      fingerprint,
    };
    const recipients = { alice: alice!.encryption.publicKey, bob: bob!.encryption.publicKey };
    const sealed = await c.sealCallSignal(body, recipients, alice!.signingKey);
    const open = (s: SealedCallSignal, overrides: Partial<Parameters<typeof c.openCallSignal>[0]> = {}) =>
      c.openCallSignal({
        routing,
        sealed: s,
        senderSigningKey: alice!.signingPublic,
        readerId: 'bob',
        privateKeys: [bob!.encryption.privateKey],
        now: Date.now(),
        ...overrides,
      });
    return { alice: alice!, bob: bob!, mallory: mallory!, routing, body, recipients, sealed, open };
  };
  const failureOf = (opening: Awaited<ReturnType<typeof c.openCallSignal>>): CallSignalFailure | 'ok' =>
    opening.ok ? 'ok' : opening.failure;

  return [
    {
      name: 'a call signal opens for either party, as signed',
      async run() {
        const { sealed, open, body, alice } = await setUp();
        const opened = await open(sealed);
        assert(opened.ok && opened.body.sdp === body.sdp, 'bob reads the offer');
        assert(opened.ok && opened.body.fingerprint === fingerprint, 'with its fingerprint');
        const own = await open(sealed, { readerId: 'alice', privateKeys: [alice.encryption.privateKey] });
        assert(own.ok, "the caller's other browsers read it too");
      },
    },
    {
      name: 'a call signal resealed with another fingerprint, or made by someone else, is refused',
      async run() {
        const { sealed, open, body, recipients, mallory } = await setUp();
        // The server cannot read the offer, but can seal one of its own for the callee and keep the signature.
        const swapped = await c.sealCallSignal(
          { ...body, sdp: sdpWith(otherFingerprint), fingerprint: otherFingerprint },
          recipients,
          mallory.signingKey,
        );
        assert(
          failureOf(await open({ ...swapped, signature: sealed.signature })) === 'bad-signature',
          'swap',
        );
        assert(failureOf(await open(swapped)) === 'bad-signature', "someone else's signature");
        assert(
          failureOf(await open(sealed, { senderSigningKey: null })) === 'bad-signature',
          'no signing key',
        );
      },
    },
    {
      name: 'a call signal moved to another call, chat, sender or recipient is refused',
      async run() {
        const { sealed, open, routing } = await setUp();
        for (const moved of [
          { ...routing, callId: 'b'.repeat(32) },
          { ...routing, chatId: 'chat2' },
          { ...routing, from: 'mallory' },
          { ...routing, to: 'carol' },
        ])
          assert(
            failureOf(await open(sealed, { routing: moved })) === 'bad-signature',
            JSON.stringify(moved),
          );
        const keys = { ...sealed.encryptedKeys, carol: sealed.encryptedKeys['bob']! };
        assert(
          failureOf(await open({ ...sealed, encryptedKeys: keys })) === 'bad-signature',
          'another reader',
        );
      },
    },
    {
      name: 'a call signal whose signed fingerprint is not its SDP’s, or an old one replayed, is refused',
      async run() {
        const { open, body, recipients, alice } = await setUp();
        const lying = await c.sealCallSignal(
          { ...body, fingerprint: otherFingerprint },
          recipients,
          alice.signingKey,
        );
        assert(failureOf(await open(lying)) === 'fingerprint', 'fingerprint differs from the SDP');
        const none = await c.sealCallSignal(
          { ...body, fingerprint: undefined as never },
          recipients,
          alice.signingKey,
        );
        assert(failureOf(await open(none)) === 'fingerprint', 'an offer without a fingerprint');
        const old = await c.sealCallSignal(
          { ...body, sentAt: new Date(Date.now() - c.callSignalWindowMs - 1000).toISOString() },
          recipients,
          alice.signingKey,
        );
        assert(failureOf(await open(old)) === 'stale', 'a replayed old offer');
        const ice = await c.sealCallSignal(
          {
            ...body,
            kind: 'ice',
            sdp: undefined as never,
            candidate: { candidate: 'candidate:1', sdpMid: '0', sdpMLineIndex: 0 },
          },
          recipients,
          alice.signingKey,
        );
        const opened = await open(ice);
        assert(
          opened.ok && opened.body.candidate?.candidate === 'candidate:1',
          'a candidate needs no fingerprint',
        );
      },
    },
    {
      name: "a group call's roster is signed with the signal, and one out of shape is refused",
      async run() {
        const { open, body, recipients, alice, sealed } = await setUp();
        const invite = await c.sealCallSignal(
          { ...body, kind: 'invite', sdp: undefined as never, group: { participants: ['alice', 'alice'] } },
          recipients,
          alice.signingKey,
        );
        const opened = await open(invite);
        assert(
          opened.ok && opened.body.kind === 'invite' && opened.body.group?.participants.join() === 'alice',
          'an invitation names who is in the call, once each',
        );
        const single = await open(sealed);
        assert(single.ok && single.body.group === undefined, 'a one-to-one signal names no roster');
        const odd = await c.sealCallSignal(
          { ...body, kind: 'invite', group: { participants: [7] } as never },
          recipients,
          alice.signingKey,
        );
        assert(failureOf(await open(odd)) === 'mismatch', 'a roster that is not a list of ids');
        const crowded = await c.sealCallSignal(
          {
            ...body,
            kind: 'invite',
            group: { participants: Array.from({ length: 65 }, (_, i) => `u${i}`) },
          },
          recipients,
          alice.signingKey,
        );
        assert(failureOf(await open(crowded)) === 'mismatch', 'a roster longer than any call');
      },
    },
    {
      name: 'a call signal sealed for someone else does not open',
      async run() {
        const { body, alice, open } = await setUp();
        const carol = await personOf('carol');
        const forCarol = await c.sealCallSignal(
          body,
          { alice: alice.encryption.publicKey, carol: carol.encryption.publicKey },
          alice.signingKey,
        );
        assert(failureOf(await open(forCarol)) === 'unreadable', 'not sealed for bob');
      },
    },
    {
      name: 'SDP fingerprints are read and compared whatever their case',
      async run() {
        assert(c.sdpFingerprint(sdpWith(fingerprint)) === fingerprint, 'read from the SDP');
        assert(c.sameFingerprint(fingerprint.toLowerCase(), fingerprint), 'case does not matter');
        assert(!c.sameFingerprint(fingerprint, otherFingerprint), 'different ones differ');
        assert(c.sdpFingerprint('v=0\r\n') === null, 'none');
        assert(
          c.sdpFingerprint(sdpWith(fingerprint) + sdpWith(otherFingerprint)) === null,
          'two that differ',
        );
      },
    },
    {
      name: "a call's timeline entry reads back as a call, and nothing else does",
      async run() {
        const entry = c.decodeMessageContent(
          c.encodeMessageContent({ text: '', attachments: [], call: { media: 'video', seconds: 240 } }),
        );
        assert(entry.call?.media === 'video' && entry.call.seconds === 240, 'a call of four minutes');
        const missed = c.decodeMessageContent(
          c.encodeMessageContent({ text: '', attachments: [], call: { media: 'audio', seconds: null } }),
        );
        assert(missed.call?.media === 'audio' && missed.call.seconds === null, 'a missed call');
        assert(c.decodeMessageContent('plain text').call === undefined, 'a text is no call');
        const odd = c.decodeMessageContent(
          '\u0000veil:2\n{"text":"","attachments":[],"call":{"media":"fax"}}',
        );
        assert(odd.call === undefined, 'an unknown medium is no call');
        const group = c.decodeMessageContent(
          c.encodeMessageContent({
            text: '',
            attachments: [],
            call: { media: 'audio', seconds: 180, group: { joined: ['alice', 'bob'] } },
          }),
        );
        assert(group.call?.group?.joined.join() === 'alice,bob', 'a group call names who joined');
      },
    },
  ];
};
