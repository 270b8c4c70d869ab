import type { GroupChainState, SignedGroupChange } from '../src/index.ts';
import { assert, type CryptoCase, type CryptoModule } from './suite-kit.ts';

/** The signed group chain: valid chains, each rule broken, forgeries, reordering and dropping. */
export const groupChainCases = (c: CryptoModule): CryptoCase[] => {
  const memberOf = async (userId: string) => {
    const pair = await c.generateSigningKeyPair();
    return {
      userId,
      signingKey: await c.nonExtractableSigningKey(pair.privateKey),
      publicKey: await c.exportPublicKeySpkiBase64(pair.publicKey),
    };
  };
  type Member = Awaited<ReturnType<typeof memberOf>>;
  const people = async () => {
    const [alice, bob, carol, mallory] = await Promise.all(
      ['alice', 'bob', 'carol', 'mallory'].map(memberOf),
    );
    const keys = new Map([alice!, bob!, carol!, mallory!].map((m) => [m.userId, m.publicKey]));
    return {
      alice: alice!,
      bob: bob!,
      carol: carol!,
      mallory: mallory!,
      keyFor: (id: string) => keys.get(id) ?? null,
    };
  };
  /** Signs `body` on top of `chain` (whatever the fold says) and returns the longer chain. */
  const extend = async (
    chain: SignedGroupChange[],
    by: Member,
    body: Parameters<CryptoModule['signGroupChange']>[2],
    minute = chain.length,
  ) => {
    const last = chain.at(-1);
    const change = await c.signGroupChange(
      'group-1',
      last ? { seq: last.seq, hash: last.hash } : null,
      body,
      by,
      new Date(Date.UTC(2026, 2, 1, 10, minute)).toISOString(),
    );
    return [...chain, change];
  };
  /** Alice creates the group with Bob, then adds Carol. */
  const startedChain = async (p: Awaited<ReturnType<typeof people>>) => {
    let chain = await extend([], p.alice, { kind: 'created', memberIds: ['alice', 'bob'], name: 'Climbing' });
    chain = await extend(chain, p.alice, { kind: 'members-added', memberIds: ['carol'] });
    return chain;
  };
  const verified = async (chain: SignedGroupChange[], keyFor: (id: string) => string | null) => {
    const check = await c.verifyGroupChain(chain, keyFor);
    assert(check.ok, `expected the chain to verify: ${check.ok ? '' : check.detail}`);
    return check.state as GroupChainState;
  };
  const failsWith = async (
    chain: SignedGroupChange[],
    keyFor: (id: string) => string | null,
    problem: string,
    index = chain.length - 1,
  ) => {
    const check = await c.verifyGroupChain(chain, keyFor);
    assert(!check.ok, `expected the chain to fail with ${problem}`);
    assert(check.problem === problem, `expected ${problem}, got ${check.problem} (${check.detail})`);
    assert(check.index === index, `expected change ${index} to fail, got ${check.index}`);
    return check;
  };

  return [
    {
      name: 'group chain: a valid chain gives members, admins, name, picture and timer',
      async run() {
        const p = await people();
        let chain = await startedChain(p);
        chain = await extend(chain, p.alice, { kind: 'admin-promoted', memberIds: ['bob'] });
        chain = await extend(chain, p.bob, { kind: 'renamed', name: 'Climbing\nclub "ö"' });
        chain = await extend(chain, p.bob, { kind: 'picture-changed', pictureHash: 'ab'.repeat(32) });
        chain = await extend(chain, p.carol, { kind: 'timer-set', timerSeconds: 3600 });
        chain = await extend(chain, p.bob, { kind: 'member-removed', memberIds: ['carol'] });
        const state = await verified(chain, p.keyFor);
        assert(state.members.join() === 'alice,bob', `members: ${state.members.join()}`);
        assert(state.admins.join() === 'alice,bob', `admins: ${state.admins.join()}`);
        assert(state.name === 'Climbing\nclub "ö"', 'the signed name');
        assert(state.pictureHash === 'ab'.repeat(32), 'the picture hash');
        assert(state.timerSeconds === 3600, 'the timer');
        assert(state.seq === 7 && state.hash === chain.at(-1)!.hash, 'the head');
      },
    },
    {
      name: 'group chain: a last admin who leaves hands the role to the longest-standing member',
      async run() {
        const p = await people();
        let chain = await startedChain(p);
        chain = await extend(chain, p.alice, { kind: 'member-left', memberIds: ['alice'] });
        const state = await verified(chain, p.keyFor);
        assert(state.members.join() === 'bob,carol' && state.admins.join() === 'bob', 'bob is admin');
        chain = await extend(chain, p.bob, { kind: 'members-added', memberIds: ['alice'] });
        await verified(chain, p.keyFor);
      },
    },
    {
      name: 'group chain: a snapshot signed by an admin starts the chain of an existing group',
      async run() {
        const p = await people();
        const snapshot = await extend([], p.bob, {
          kind: 'snapshot',
          memberIds: ['alice', 'bob', 'carol'],
          adminIds: ['alice', 'bob'],
          name: 'Old group',
          pictureHash: null,
          timerSeconds: 300,
        });
        const state = await verified(snapshot, p.keyFor);
        assert(state.admins.join() === 'alice,bob' && state.timerSeconds === 300, 'the snapshot state');
        const byMember = await extend([], p.carol, {
          kind: 'snapshot',
          memberIds: ['alice', 'bob', 'carol'],
          adminIds: ['alice'],
          name: 'Old group',
          timerSeconds: 0,
        });
        await failsWith(byMember, p.keyFor, 'forbidden');
      },
    },
    {
      name: 'group chain: a non-admin may not add, remove, promote, rename or change the picture',
      async run() {
        const p = await people();
        const chain = await startedChain(p);
        const bodies: Parameters<CryptoModule['signGroupChange']>[2][] = [
          { kind: 'members-added', memberIds: ['mallory'] },
          { kind: 'member-removed', memberIds: ['alice'] },
          { kind: 'admin-promoted', memberIds: ['bob'] },
          { kind: 'renamed', name: 'Taken' },
          { kind: 'picture-changed', pictureHash: null },
        ];
        for (const body of bodies) await failsWith(await extend(chain, p.bob, body), p.keyFor, 'forbidden');
      },
    },
    {
      name: 'group chain: an outsider may not sign changes, nor leave for someone else',
      async run() {
        const p = await people();
        const chain = await startedChain(p);
        await failsWith(
          await extend(chain, p.mallory, { kind: 'timer-set', timerSeconds: 0 }),
          p.keyFor,
          'forbidden',
        );
        await failsWith(
          await extend(chain, p.alice, { kind: 'member-left', memberIds: ['bob'] }),
          p.keyFor,
          'forbidden',
        );
        await failsWith(
          await extend(chain, p.alice, { kind: 'members-added', memberIds: ['bob'] }),
          p.keyFor,
          'forbidden',
        );
        await failsWith(
          await extend(chain, p.alice, { kind: 'member-removed', memberIds: ['alice'] }),
          p.keyFor,
          'forbidden',
        );
        const creation = await extend([], p.mallory, {
          kind: 'created',
          memberIds: ['alice', 'bob'],
          name: 'x',
        });
        await failsWith(creation, p.keyFor, 'forbidden');
      },
    },
    {
      name: 'group chain: a change that fills fields its kind does not use is refused',
      async run() {
        const p = await people();
        const chain = await startedChain(p);
        await failsWith(
          await extend(chain, p.carol, { kind: 'timer-set', timerSeconds: 0, memberIds: ['mallory'] }),
          p.keyFor,
          'malformed',
        );
        await failsWith(await extend(chain, p.alice, { kind: 'renamed', name: '  ' }), p.keyFor, 'malformed');
      },
    },
    {
      name: 'group chain: a forged signature, or one by another member, fails',
      async run() {
        const p = await people();
        const chain = await startedChain(p);
        // The server writes "added by Alice" and signs it with a key of its own.
        const forged = await extend(
          chain,
          { ...p.mallory, userId: 'alice' },
          {
            kind: 'members-added',
            memberIds: ['mallory'],
          },
        );
        await failsWith(forged, p.keyFor, 'bad-signature');
        // A genuine change with one field altered after signing.
        const genuine = await extend(chain, p.alice, { kind: 'members-added', memberIds: ['bob2'] });
        const altered = { ...genuine.at(-1)!, memberIds: ['mallory'] };
        await failsWith([...chain, altered], p.keyFor, 'bad-hash');
        const rehashed = { ...altered, hash: 'ff'.repeat(32) };
        await failsWith([...chain, rehashed], p.keyFor, 'bad-hash');
        const noKey = await c.verifyGroupChain(genuine, (id) => (id === 'alice' ? null : p.keyFor(id)));
        assert(!noKey.ok && noKey.problem === 'no-signing-key' && noKey.index === 0, 'no key, no trust');
      },
    },
    {
      name: 'group chain: a reordered, dropped or replayed change breaks the chain',
      async run() {
        const p = await people();
        let chain = await startedChain(p);
        chain = await extend(chain, p.alice, { kind: 'member-removed', memberIds: ['carol'] });
        chain = await extend(chain, p.alice, { kind: 'renamed', name: 'Without Carol' });
        const [created, added, removed, renamed] = chain as [SignedGroupChange, ...SignedGroupChange[]];
        await failsWith([created, added!, renamed!], p.keyFor, 'broken-chain', 2);
        await failsWith([created, removed!, added!], p.keyFor, 'broken-chain', 1);
        await failsWith([created, added!, removed!, removed!], p.keyFor, 'broken-chain', 3);
        const failed = await failsWith([added!, created], p.keyFor, 'broken-chain', 0);
        assert(failed.state === null, 'nothing holds before the first change');
        // Another group's change does not fit either, even at the right place.
        const other = await c.signGroupChange(
          'group-2',
          { seq: added!.seq, hash: added!.hash },
          { kind: 'members-added', memberIds: ['mallory'] },
          p.alice,
          added!.at,
        );
        const wrongGroup = await failsWith([created, added!, other], p.keyFor, 'broken-chain', 2);
        assert(wrongGroup.state?.members.join() === 'alice,bob,carol', 'the state before the failure');
      },
    },
    {
      name: 'group chain: times never go backwards',
      async run() {
        const p = await people();
        const chain = await startedChain(p);
        const last = chain.at(-1)!;
        const backdated = await c.signGroupChange(
          'group-1',
          { seq: last.seq, hash: last.hash },
          { kind: 'renamed', name: 'Earlier' },
          p.alice,
          new Date(Date.parse(last.at) - 1).toISOString(),
        );
        await failsWith([...chain, backdated], p.keyFor, 'backdated');
      },
    },
  ];
};
