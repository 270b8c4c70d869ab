import { afterAll, beforeAll, expect, it } from 'vitest';
import { frankText } from '@veil/crypto';
import { limits } from '@veil/contracts';
import type { StartVeilOptions } from '../../src/index.ts';
import { createApi, type Api } from '../support/api-client.ts';
import { editFranked, sendFranked, type FrankedMessage } from '../support/franked-messages.ts';
import { expectJsonError } from '../support/json-errors.ts';
import { socketPool } from '../support/sockets.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { createGroup, createSigningUser, sendDirect, uniqueName, type TestUser } from '../support/users.ts';

type SigningUser = Awaited<ReturnType<typeof createSigningUser>>;

/**
 * Abuse reports the server verifies (message franking), the operator role and suspension,
 * played by members, strangers, forgers and an operator over real HTTP and sockets.
 */
export const reportsSuite = (options: Partial<StartVeilOptions> = {}) => {
  let veil: TestVeil;
  let api: Api;
  const operatorName = uniqueName('op');
  let operator: SigningUser;
  let alice: SigningUser;
  let bob: SigningUser;
  let carol: SigningUser;
  const sockets = socketPool(() => veil.url);

  const report = (
    reporter: TestUser,
    message: Pick<FrankedMessage, 'messageId' | 'text' | 'frankingKey'>,
    extra: Record<string, unknown> = {},
  ) =>
    api.post(
      `/api/v1/message/${message.messageId}/report`,
      { text: message.text, frankingKey: message.frankingKey, reason: 'harassment', ...extra },
      reporter.accessToken,
    );
  const openReports = async () => {
    const res = await api.get('/api/v1/operator/reports', operator.accessToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as {
      reports: { _id: string; messages: { messageId: string; text: string }[]; status: string }[];
      users: Record<string, string>;
    };
  };
  const toBob = (text: string) => sendFranked(api, alice, [alice, bob], text, { to: bob });

  beforeAll(async () => {
    veil = await startTestVeil({
      ...options,
      env: { ...options.env, VEIL_OPERATORS: `nobody1,${operatorName}` },
    });
    api = createApi(veil.url);
    [operator, alice, bob, carol] = await Promise.all([
      createSigningUser(api, 'op', operatorName),
      createSigningUser(api, 'ra'),
      createSigningUser(api, 'rb'),
      createSigningUser(api, 'rc'),
    ]);
  });
  afterAll(async () => {
    sockets.closeAll();
    await veil.destroy();
  });

  it('verifies a report of a real message, with the messages before it, and shows it to the operator', async () => {
    const first = await toBob('first, harmless');
    const second = await toBob('second, a threat');
    const filed = await report(bob, second, {
      reason: 'threat',
      earlier: [{ messageId: first.messageId, text: first.text, frankingKey: first.frankingKey }],
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    const { reports, users } = await openReports();
    const listed = reports.find((r) => r._id === filed.body.data.reportId);
    expect(listed).toMatchObject({
      reporterId: bob._id,
      accusedId: alice._id,
      chatId: second.chatId,
      messageId: second.messageId,
      reason: 'threat',
      status: 'open',
      messages: [
        { messageId: first.messageId, senderId: alice._id, text: 'first, harmless' },
        { messageId: second.messageId, senderId: alice._id, text: 'second, a threat' },
      ],
    });
    expect(users).toMatchObject({ [alice._id]: alice.username, [bob._id]: bob.username });
  });

  it('refuses forged reports: altered text, another key, a malformed key, an unfranked message, one’s own', async () => {
    const reporter = await createSigningUser(api, 'rf');
    const real = await sendFranked(api, alice, [alice, reporter], 'what was really said', { to: reporter });
    const other = await sendFranked(api, alice, [alice, reporter], 'another message', { to: reporter });
    const before = (await openReports()).reports.length;

    expectJsonError(
      await report(reporter, { ...real, text: 'what was never said' }),
      422,
      'REPORT_NOT_VERIFIED',
    );
    expectJsonError(await report(reporter, { ...real, text: `${real.text} ` }), 422, 'REPORT_NOT_VERIFIED');
    expectJsonError(
      await report(reporter, { ...real, frankingKey: other.frankingKey }),
      422,
      'REPORT_NOT_VERIFIED',
    );
    // A key made up for the text: the tag it gives is not the one the sender signed.
    const madeUp = await frankText('what was never said');
    expectJsonError(
      await report(reporter, { ...real, text: 'what was never said', frankingKey: madeUp.key }),
      422,
      'REPORT_NOT_VERIFIED',
    );
    // An earlier message that does not verify spoils the whole report.
    expectJsonError(
      await report(reporter, other, {
        earlier: [{ messageId: real.messageId, text: 'forged context', frankingKey: real.frankingKey }],
      }),
      422,
      'REPORT_NOT_VERIFIED',
    );
    expectJsonError(await report(reporter, { ...real, frankingKey: 'short' }), 400, 'VALIDATION_FAILED');
    expectJsonError(await report(reporter, real, { reason: 'dislike' }), 400, 'VALIDATION_FAILED');
    // A message sent without a franking tag cannot be verified, so it cannot be reported.
    const unfranked = await sendDirect(api, alice, reporter, 'sent the old way');
    expectJsonError(
      await report(reporter, {
        messageId: unfranked.body.data.message._id,
        text: 'sent the old way',
        frankingKey: real.frankingKey,
      }),
      422,
      'NOT_REPORTABLE',
    );
    // The tag matches, but the message is not signed by its sender's key: no verified text.
    const unsigned = await sendFranked(
      api,
      alice,
      [alice, reporter],
      'signed by someone else',
      { to: reporter },
      carol.signing.privateKey,
    );
    expectJsonError(await report(reporter, unsigned), 422, 'REPORT_NOT_VERIFIED', /signature/);
    const own = await sendFranked(api, reporter, [alice, reporter], 'my own words', { to: alice });
    expectJsonError(await report(reporter, own), 400, 'VALIDATION_FAILED', /own message/);
    // Only a message or an edit carries a franking tag: a reaction signed as version 3 is refused.
    const history = await api.get(`/api/v1/chat/getallmessages/${own.chatId}`, reporter.accessToken);
    const stored = history.body.data.messages.find((m: { _id: string }) => m._id === own.messageId);
    expectJsonError(
      await api.put(
        `/api/v1/message/${own.messageId}/reaction`,
        {
          encryptedReaction: stored.content,
          iv: stored.iv,
          encryptedKeys: stored.encryptedKeys,
          signature: { ...stored.signature, signedAt: new Date().toISOString() },
        },
        reporter.accessToken,
      ),
      400,
      'SIGNATURE_MISMATCH',
      /franking/,
    );
    expect((await openReports()).reports.length).toBe(before);
  });

  it('verifies a report of an edited message against its last edit’s franking tag, and shows the operator it was edited', async () => {
    const reporter = await createSigningUser(api, 're');
    const where = { to: reporter };
    const members = [alice, reporter];
    const before = await sendFranked(api, alice, members, 'the message before', where);
    const sent = await sendFranked(api, alice, members, 'see you tomorrow', where);
    const first = await editFranked(api, alice, members, sent, 'see you tonight', where);
    const edited = await editFranked(api, alice, members, first, 'I will find you tonight', where);
    const beforeCount = (await openReports()).reports.length;

    // The text as first sent, or as first edited, with its own key: no longer what is shown.
    expectJsonError(await report(reporter, sent), 422, 'REPORT_NOT_VERIFIED');
    expectJsonError(await report(reporter, first), 422, 'REPORT_NOT_VERIFIED');
    // The current text with the original message's key, or altered under the edit's key.
    expectJsonError(
      await report(reporter, { ...edited, frankingKey: sent.frankingKey }),
      422,
      'REPORT_NOT_VERIFIED',
    );
    expectJsonError(
      await report(reporter, { ...edited, text: 'I will see you tonight' }),
      422,
      'REPORT_NOT_VERIFIED',
    );
    // An edit signed with a key that is not the sender's: the tag fits, the signature does not.
    const toEdit = await sendFranked(api, alice, members, 'to be edited', where);
    const signedByCarol = await editFranked(api, alice, members, toEdit, 'signed by carol', where, {
      signWith: carol.signing.privateKey,
    });
    expectJsonError(await report(reporter, signedByCarol), 422, 'REPORT_NOT_VERIFIED', /signature/);
    expect((await openReports()).reports.length).toBe(beforeCount);

    const filed = await report(reporter, edited, {
      earlier: [{ messageId: before.messageId, text: before.text, frankingKey: before.frankingKey }],
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    const history = await api.get(`/api/v1/chat/getallmessages/${sent.chatId}`, reporter.accessToken);
    const editedAt = (history.body.data.messages as { _id: string; editedAt?: string }[]).find(
      (m) => m._id === sent.messageId,
    )!.editedAt;
    expect(editedAt).toBeDefined();
    const listed = (await openReports()).reports.find((r) => r._id === filed.body.data.reportId);
    expect(listed?.messages).toEqual([
      {
        messageId: before.messageId,
        senderId: alice._id,
        text: 'the message before',
        sentAt: expect.any(String),
      },
      {
        messageId: sent.messageId,
        senderId: alice._id,
        text: 'I will find you tonight',
        sentAt: expect.any(String),
        editedAt,
      },
    ]);
  });

  it('refuses a report of a message whose last edit carries no franking tag (NOT_REPORTABLE)', async () => {
    const reporter = await createSigningUser(api, 'ru');
    const where = { to: reporter };
    const sent = await sendFranked(api, alice, [alice, reporter], 'sent with a tag', where);
    // A client from before edits carried a tag: the message now reads the edit's text.
    const edited = await editFranked(api, alice, [alice, reporter], sent, 'edited without one', where, {
      franked: false,
    });
    expectJsonError(await report(reporter, edited), 422, 'NOT_REPORTABLE', /edited without a franking tag/);
    // Nor does the text first sent, with its own key, report it: it is no longer what is shown.
    expectJsonError(await report(reporter, sent), 422, 'NOT_REPORTABLE');
  });

  it('answers a report of a message the reporter cannot see as a missing message', async () => {
    const secret = await toBob('between alice and bob');
    // Carol holds the text and key (leaked to her), but the message was never hers to read.
    expectJsonError(await report(carol, secret), 404, 'MESSAGE_NOT_FOUND');
    expectJsonError(await report(carol, { ...secret, messageId: '01JNOTAMESSAGE000000000000' }), 404);
    // A group message from before Carol joined was not sealed for her either.
    const groupId = await createGroup(api, alice, 'before carol', [bob]);
    const early = await sendFranked(api, alice, [alice, bob], 'before carol came', { groupId });
    const added = await api.post(
      `/api/v1/chat/${groupId}/members`,
      { members: [carol._id] },
      alice.accessToken,
    );
    expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);
    expectJsonError(await report(carol, early), 404, 'MESSAGE_NOT_FOUND');
    // Bob, a member it was sealed for, may report it.
    expect((await report(bob, early)).status).toBe(201);
  });

  it('budgets report floods per reporter (429 with Retry-After), forged attempts included', async () => {
    const flooder = await createSigningUser(api, 'rfl');
    const message = await sendFranked(api, alice, [alice, flooder], 'reported over and over', {
      to: flooder,
    });
    const answers: number[] = [];
    for (let i = 0; i < limits.reportsPerUserPerHour; i++)
      answers.push((await report(flooder, i % 2 ? message : { ...message, text: 'forged' })).status);
    expect(answers.filter((status) => status === 201)).toHaveLength(limits.reportsPerUserPerHour / 2);
    const flooded = await report(flooder, message);
    expectJsonError(flooded, 429, 'RATE_LIMITED');
    expect(Number(flooded.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another member's budget is their own.
    expect((await report(bob, await toBob('still reportable by bob'))).status).toBe(201);
  });

  it('answers every operator route with 403 without the role, and says who holds it', async () => {
    const status = async (user: TestUser) =>
      (await api.get('/api/v1/operator/status', user.accessToken)).body.data.operator;
    expect(await status(bob)).toBe(false);
    expect(await status(operator)).toBe(true);
    const { reports } = await openReports();
    const reportId = reports[0]!._id;
    const attempts = [
      api.get('/api/v1/operator/reports', bob.accessToken),
      api.get('/api/v1/operator/reports?status=closed', bob.accessToken),
      api.post(`/api/v1/operator/reports/${reportId}/dismiss`, {}, bob.accessToken),
      api.get('/api/v1/operator/suspensions', bob.accessToken),
      api.post(`/api/v1/operator/users/${alice._id}/suspend`, { reportId }, bob.accessToken),
      api.post(`/api/v1/operator/users/${alice._id}/unsuspend`, {}, bob.accessToken),
    ];
    for (const res of await Promise.all(attempts)) expectJsonError(res, 403, 'FORBIDDEN', /operator role/);
    expectJsonError(await api.get('/api/v1/operator/reports'), 401, 'UNAUTHENTICATED');
    // Nothing changed: the report is still open.
    expect((await openReports()).reports.map((r) => r._id)).toContain(reportId);
  });

  it('dismisses a report once; a second close is refused', async () => {
    const filed = await report(bob, await toBob('to be dismissed'));
    const reportId = filed.body.data.reportId as string;
    const dismissed = await api.post(
      `/api/v1/operator/reports/${reportId}/dismiss`,
      {},
      operator.accessToken,
    );
    expect(dismissed.status, JSON.stringify(dismissed.body)).toBe(200);
    expect(dismissed.body.data.report).toMatchObject({ status: 'dismissed', closedBy: operator._id });
    expect((await openReports()).reports.map((r) => r._id)).not.toContain(reportId);
    const closed = await api.get('/api/v1/operator/reports?status=closed', operator.accessToken);
    expect(closed.body.data.reports.map((r: { _id: string }) => r._id)).toContain(reportId);
    expectJsonError(
      await api.post(`/api/v1/operator/reports/${reportId}/dismiss`, {}, operator.accessToken),
      409,
      'VERSION_CONFLICT',
    );
    expectJsonError(
      await api.post('/api/v1/operator/reports/01JNOTAREPORT0000000000000/dismiss', {}, operator.accessToken),
      404,
    );
  });

  it('suspends an account: its sessions and sockets end, it cannot log in, its messages stay; unsuspend restores it', async () => {
    const mallory = await createSigningUser(api, 'rm');
    const said = await sendFranked(api, mallory, [mallory, bob], 'abuse from mallory', { to: bob });
    const filed = await report(bob, said);
    const reportId = filed.body.data.reportId as string;
    const socket = await sockets.connect(mallory);
    const dropped = new Promise<string>((resolve) =>
      socket.on('error', (error: { code: string }) => resolve(error.code)),
    );

    // An operator cannot be suspended, not even by another operator.
    expectJsonError(
      await api.post(`/api/v1/operator/users/${operator._id}/suspend`, {}, operator.accessToken),
      403,
      'FORBIDDEN',
    );
    const suspended = await api.post(
      `/api/v1/operator/users/${mallory._id}/suspend`,
      { reportId },
      operator.accessToken,
    );
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);

    expect(await dropped).toBe('TOKEN_REVOKED');
    await expect.poll(() => socket.connected).toBe(false);
    expectJsonError(await api.get('/api/v1/user/blocks', mallory.accessToken), 401, 'TOKEN_REVOKED');
    expectJsonError(await api.post('/api/v1/user/refresh', { refreshtoken: mallory.refreshToken }), 401);
    const login = await api.post('/api/v1/user/login', {
      username: mallory.username,
      password: mallory.password,
    });
    expectJsonError(login, 403, 'ACCOUNT_SUSPENDED', /suspended/);
    // A wrong password learns nothing of the suspension.
    expectJsonError(
      await api.post('/api/v1/user/login', { username: mallory.username, password: 'not the password' }),
      401,
      'INVALID_CREDENTIALS',
    );
    // The report is closed as acted on; mallory's message is still in Bob's history, as sent.
    const closed = await api.get('/api/v1/operator/reports?status=closed', operator.accessToken);
    expect(closed.body.data.reports).toContainEqual(
      expect.objectContaining({ _id: reportId, status: 'suspended', closedBy: operator._id }),
    );
    const history = await api.get(`/api/v1/chat/getallmessages/${said.chatId}`, bob.accessToken);
    expect(history.body.data.messages.map((m: { _id: string }) => m._id)).toContain(said.messageId);
    const list = await api.get('/api/v1/operator/suspensions', operator.accessToken);
    expect(list.body.data.accounts).toContainEqual(
      expect.objectContaining({ userId: mallory._id, username: mallory.username, suspendedBy: operator._id }),
    );

    const lifted = await api.post(
      `/api/v1/operator/users/${mallory._id}/unsuspend`,
      {},
      operator.accessToken,
    );
    expect(lifted.status, JSON.stringify(lifted.body)).toBe(200);
    const again = await api.post('/api/v1/user/login', {
      username: mallory.username,
      password: mallory.password,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expectJsonError(
      await api.post(`/api/v1/operator/users/${mallory._id}/unsuspend`, {}, operator.accessToken),
      404,
    );
  });
};
