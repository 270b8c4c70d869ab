/**
 * Makes deploy/k6/fixtures.json: key pairs and real end-to-end encrypted payloads made with
 * @veil/crypto, for the k6 scripts (k6's WebCrypto has no RSA-OAEP). Only public keys and
 * ciphertext are written; private keys stay in this process.
 *   node deploy/k6/precompute.ts [users=20]
 *
 * `payloads[i]` is user i's message to user i+1 (the last user's to the first), its key wrapped
 * for exactly those two users' keys: whoever the server names them, the recipient can read it.
 * socket-latency.js pairs user 2k with 2k+1; http-chat.js sends from i to i+1.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildIndividualPayload, exportPublicKeySpkiBase64, generateUserKeyPair } from '@veil/crypto';

/** The fixtures, and the private keys (for tests that read what was delivered; never written). */
export const makeFixtures = async (count: number) => {
  const pairs = await Promise.all(Array.from({ length: count }, () => generateUserKeyPair()));
  const users = await Promise.all(
    pairs.map(async (p) => ({ publicKey: await exportPublicKeySpkiBase64(p.publicKey) })),
  );
  const payloads = await Promise.all(
    pairs.map((sender, i) => {
      const recipient = pairs[(i + 1) % pairs.length]!;
      // The ids only label the two wrapped keys inside this call; the payload carries no id.
      return buildIndividualPayload(`load test message ${i}`, {
        recipientId: 'recipient',
        recipientKey: recipient.publicKey,
        senderId: 'sender',
        senderKey: sender.publicKey,
      });
    }),
  );
  return { fixtures: { users, payloads }, privateKeys: pairs.map((p) => p.privateKey) };
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const count = Math.max(2, Number(process.argv[2] ?? 20));
  const { fixtures } = await makeFixtures(count);
  const file = path.join(import.meta.dirname, 'fixtures.json');
  await writeFile(file, JSON.stringify(fixtures));
  console.log(`wrote ${fixtures.users.length} users and ${fixtures.payloads.length} payloads to ${file}`);
}
