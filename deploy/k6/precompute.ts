/**
 * Makes deploy/k6/fixtures.json: key pairs and real end-to-end encrypted payloads made with
 * @veil/crypto, for the k6 scripts (k6's WebCrypto has no RSA-OAEP). Only public keys and
 * ciphertext are written; private keys stay in this process.
 *   node deploy/k6/precompute.ts [users=20]
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildIndividualPayload, exportPublicKeySpkiBase64, generateUserKeyPair } from '@veil/crypto';

const count = Math.max(2, Number(process.argv[2] ?? 20));
const pairs = await Promise.all(Array.from({ length: count }, () => generateUserKeyPair()));
const users = await Promise.all(pairs.map(async (p) => ({ publicKey: await exportPublicKeySpkiBase64(p.publicKey) })));
const payloads = await Promise.all(
  pairs.map((sender, i) => {
    const recipient = pairs[(i + 1) % pairs.length]!;
    return buildIndividualPayload(`load test message ${i}`, {
      recipientId: `user${(i + 1) % pairs.length}`,
      recipientKey: recipient.publicKey,
      senderId: `user${i}`,
      senderKey: sender.publicKey,
    });
  }),
);
const file = path.join(import.meta.dirname, 'fixtures.json');
await writeFile(file, JSON.stringify({ users, payloads }));
console.log(`wrote ${users.length} users and ${payloads.length} payloads to ${file}`);
