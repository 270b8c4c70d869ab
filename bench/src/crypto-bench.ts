import { decryptMessage, encryptMessage, generateUserKeyPair } from '@veil/crypto';
import { median, round } from './stats.ts';

/** Client-side cost: encrypting for 2 and for 50 recipients, decrypting a 100-message history. */
export const runCryptoBench = async (repeats: number) => {
  const me = await generateUserKeyPair();
  const other = await generateUserKeyPair();
  const fifty: Record<string, CryptoKey> = { me: me.publicKey };
  for (let i = 1; i < 50; i++) fifty[`m${i}`] = other.publicKey;
  const time = async (work: () => Promise<unknown>) => {
    const samples: number[] = [];
    for (let i = 0; i < repeats; i++) {
      const started = performance.now();
      await work();
      samples.push(performance.now() - started);
    }
    return round(median(samples), 3);
  };
  const text = 'A typical chat message, a sentence or two long, with an emoji 🙂.';
  const history = await Promise.all(
    Array.from({ length: 100 }, () => encryptMessage(text, { me: me.publicKey, other: other.publicKey })),
  );
  return {
    encryptFor2Ms: await time(() => encryptMessage(text, { me: me.publicKey, other: other.publicKey })),
    encryptFor50Ms: await time(() => encryptMessage(text, fifty)),
    decrypt100HistoryMs: await time(() =>
      Promise.all(history.map((m) => decryptMessage(m, 'me', me.privateKey))),
    ),
  };
};
