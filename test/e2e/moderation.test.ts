import { ModerationAction, ModerationActionType } from '@spinroom/contracts/events/v1/moderation_actions';
import { moderationActionTypes, moderationRoleName } from '@spinroom/contracts/moderation';
import { UserRole } from '@spinroom/contracts/room/v1/room_vocabulary';
import { userRoles } from '@spinroom/contracts/vocabulary';
import { eventually } from '@spinroom/platform/testing';
import { describe, expect, it } from 'vitest';
import { freshEmail, signedToken, usePlatform, useTopic } from '../support/platform.js';

const U = '/api/user-service';
const PASSWORD = 'correct horse battery';

describe('moderation, vouchers and deactivation through the BFF', () => {
  const { call } = usePlatform();
  const actions = useTopic('moderation-actions');

  async function signUp(): Promise<{ email: string; userUuid: string; accessToken: string }> {
    const email = freshEmail();
    const { status, body } = await call('POST', `${U}/users/sign-up`, { body: { email, password: PASSWORD } });
    expect(status).toBe(201);
    return { email, ...body };
  }
  const logIn = (email: string) => call('POST', `${U}/auth/login`, { body: { email, password: PASSWORD } });
  const session = (token: string) => call('GET', `${U}/auth/session`, { token });
  /** The user's acts as decoded, with their enums in words (the event carries the vocabulary's enums, `raw` shows them). */
  const actionsFor = (userUuid: string) =>
    actions
      .filter((m) => m.key === userUuid)
      .map((m) => ModerationAction.decode(m.value))
      .map((raw) => ({
        ...raw,
        raw,
        actionType: moderationActionTypes.nameOf(raw.actionType),
        previousRole: moderationRoleName(raw.previousRole),
        role: moderationRoleName(raw.role),
        actorTokenRole: userRoles.nameOf(raw.actorTokenRole),
      }));

  it('answers 401 without a token, 403 to a plain user and succeeds for the right role, on every path', async () => {
    const user = await signUp();
    const moderator = await signedToken('moderator');
    const admin = await signedToken('admin');
    const target = await signUp();
    const { body: voucher } = await call('POST', `${U}/vouchers`, { token: admin, body: {} });
    const { body: comment } = await call('POST', `${U}/moderation-comments`, {
      token: moderator,
      body: { userUuid: target.userUuid, comment: 'first note' },
    });
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const t = target.userUuid;
    // In an order each success leaves the next one valid.
    const paths: Array<{ method: string; path: string; body?: unknown; role: 'admin' | 'moderator'; status: number }> = [
      { method: 'POST', path: `${U}/users/admin/sign-up`, body: { email: freshEmail(), password: PASSWORD }, role: 'admin', status: 201 },
      { method: 'POST', path: `${U}/vouchers`, body: {}, role: 'admin', status: 201 },
      { method: 'GET', path: `${U}/vouchers`, role: 'admin', status: 200 },
      { method: 'DELETE', path: `${U}/vouchers/${voucher.id}`, role: 'admin', status: 200 },
      { method: 'POST', path: `${U}/users/kick`, body: { userUuid: t }, role: 'moderator', status: 200 },
      { method: 'POST', path: `${U}/users/ban`, body: { userUuid: t }, role: 'moderator', status: 200 },
      { method: 'POST', path: `${U}/users/unban`, body: { userUuid: t }, role: 'moderator', status: 200 },
      { method: 'POST', path: `${U}/users/temporary-ban`, body: { userUuid: t, expirationTime: future }, role: 'moderator', status: 200 },
      { method: 'POST', path: `${U}/users/unban`, body: { userUuid: t }, role: 'moderator', status: 200 },
      { method: 'POST', path: `${U}/users/add-role`, body: { userUuid: t, role: 'promoter' }, role: 'moderator', status: 200 },
      { method: 'POST', path: `${U}/users/add-global-moderator-role`, body: { userUuid: t }, role: 'admin', status: 200 },
      { method: 'PUT', path: `${U}/users/${t}/capabilities/uploadMusic`, role: 'admin', status: 200 },
      { method: 'DELETE', path: `${U}/users/${t}/capabilities/uploadMusic`, role: 'admin', status: 200 },
      { method: 'POST', path: `${U}/moderation-comments`, body: { userUuid: t, comment: 'a note' }, role: 'moderator', status: 201 },
      { method: 'GET', path: `${U}/moderation-comments?userUuid=${t}`, role: 'moderator', status: 200 },
      { method: 'GET', path: `${U}/moderation-comments/${comment.id}`, role: 'moderator', status: 200 },
      { method: 'GET', path: `${U}/users/list-deactivate`, role: 'moderator', status: 200 },
      { method: 'DELETE', path: `${U}/users/deactivate/${t}`, role: 'admin', status: 200 },
      { method: 'POST', path: `${U}/users/reactivate/${t}`, role: 'admin', status: 200 },
    ];
    for (const { method, path, body, role, status } of paths) {
      expect({ path, status: (await call(method, path, { body })).status }).toEqual({ path, status: 401 });
      expect({ path, status: (await call(method, path, { body, token: user.accessToken })).status }).toEqual({ path, status: 403 });
      const answer = await call(method, path, { body, token: role === 'admin' ? admin : moderator });
      expect({ path, status: answer.status, body: answer.body }).toMatchObject({ path, status });
    }
    // The caller's own: any signed-in user; then a moderator cancels it.
    expect((await call('POST', `${U}/users/request-deactivate`)).status).toBe(401);
    expect((await call('POST', `${U}/users/request-deactivate`, { token: user.accessToken })).status).toBe(200);
    const cancel = { body: { userUuid: user.userUuid } };
    expect((await call('POST', `${U}/users/cancel-requested-deactivate`, cancel)).status).toBe(401);
    expect((await call('POST', `${U}/users/cancel-requested-deactivate`, { ...cancel, token: user.accessToken })).status).toBe(403);
    expect((await call('POST', `${U}/users/cancel-requested-deactivate`, { ...cancel, token: moderator })).status).toBe(200);
    // Redeeming needs a signed-in user, not a role.
    const { body: pending } = await call('POST', `${U}/vouchers`, { token: admin, body: {} });
    expect((await call('PATCH', `${U}/vouchers/redeem`, { body: { code: pending.code } })).status).toBe(401);
    expect((await call('PATCH', `${U}/vouchers/redeem`, { body: { code: pending.code }, token: user.accessToken })).status).toBe(200);
  });

  it('signs up with a voucher, which is redeemed by the new account and only once', async () => {
    const admin = await signedToken('admin');
    const created = await call('POST', `${U}/vouchers`, { token: admin, body: { code: 'WELCOME-2026' } });
    expect(created).toMatchObject({ status: 201, body: { code: 'WELCOME-2026', status: 'PENDING', redeemedBy: null } });
    expect(await call('POST', `${U}/vouchers`, { token: admin, body: { code: 'WELCOME-2026' } })).toMatchObject({
      status: 409,
      body: { message: 'This voucher code already exists' },
    });

    const missing = await call('POST', `${U}/users/voucher-sign-up`, { body: { email: freshEmail(), password: PASSWORD } });
    expect(missing).toMatchObject({ status: 400, body: { message: 'Email, password, or voucher code is missing in request' } });

    const email = freshEmail();
    const signUp = await call('POST', `${U}/users/voucher-sign-up`, { body: { email, password: PASSWORD, voucherCode: 'WELCOME-2026' } });
    expect(signUp).toMatchObject({ status: 201, body: { accessToken: expect.any(String), userUuid: expect.any(String) } });
    expect((await logIn(email)).status).toBe(200);
    const { body: vouchers } = await call('GET', `${U}/vouchers`, { token: admin });
    expect(vouchers.find((v: { id: string }) => v.id === created.body.id)).toMatchObject({
      status: 'REDEEMED',
      redeemedBy: signUp.body.userUuid,
      redeemedAt: expect.any(String),
    });

    // A used voucher creates no account; an already registered email keeps its 403 and leaves the voucher PENDING.
    const second = freshEmail();
    const reused = await call('POST', `${U}/users/voucher-sign-up`, {
      body: { email: second, password: PASSWORD, voucherCode: 'WELCOME-2026' },
    });
    expect(reused).toMatchObject({ status: 409, body: { message: 'This voucher has already been redeemed' } });
    expect((await logIn(second)).status).toBe(401);
    const { body: fresh } = await call('POST', `${U}/vouchers`, { token: admin, body: {} });
    const taken = await call('POST', `${U}/users/voucher-sign-up`, { body: { email, password: PASSWORD, voucherCode: fresh.code } });
    expect(taken).toMatchObject({ status: 403, body: { message: 'This email is already registered' } });
    const unknown = await call('POST', `${U}/users/voucher-sign-up`, {
      body: { email: second, password: PASSWORD, voucherCode: 'NO-SUCH-CODE' },
    });
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Voucher not found' } });

    // Revoked: PENDING -> REVOKED, then neither redeemable nor revocable again.
    expect(await call('DELETE', `${U}/vouchers/${fresh.id}`, { token: admin })).toMatchObject({ status: 200, body: { status: 'REVOKED' } });
    expect((await call('DELETE', `${U}/vouchers/${fresh.id}`, { token: admin })).status).toBe(409);
    const revoked = await call('POST', `${U}/users/voucher-sign-up`, {
      body: { email: second, password: PASSWORD, voucherCode: fresh.code },
    });
    expect(revoked).toMatchObject({ status: 409, body: { message: 'This voucher has been revoked' } });
  });

  it('redeems a voucher exactly once among 10 concurrent attempts', async () => {
    const admin = await signedToken('admin');
    const { body: voucher } = await call('POST', `${U}/vouchers`, { token: admin, body: {} });
    const users = await Promise.all(Array.from({ length: 10 }, () => signUp()));
    const answers = await Promise.all(
      users.map((u) => call('PATCH', `${U}/vouchers/redeem`, { token: u.accessToken, body: { code: voucher.code } })),
    );
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
    const { body: vouchers } = await call('GET', `${U}/vouchers`, { token: admin });
    expect(vouchers.find((v: { id: string }) => v.id === voucher.id)).toMatchObject({
      status: 'REDEEMED',
      redeemedBy: winners[0]!.body.redeemedBy,
    });
    expect(users.map((u) => u.userUuid)).toContain(winners[0]!.body.redeemedBy);
  });

  it('lets an admin sign someone up, with the spec message when a field is missing', async () => {
    const admin = await signedToken('admin');
    const missing = await call('POST', `${U}/users/admin/sign-up`, { token: admin, body: { email: freshEmail() } });
    expect(missing).toMatchObject({ status: 400, body: { message: 'Email or password is missing in request' } });
    const email = freshEmail();
    const created = await call('POST', `${U}/users/admin/sign-up`, { token: admin, body: { email, password: PASSWORD } });
    expect(created).toMatchObject({ status: 201, body: { userUuid: expect.any(String) } });
    expect((await logIn(email)).body.userUuid).toBe(created.body.userUuid);
    expect((await call('POST', `${U}/users/admin/sign-up`, { token: admin, body: { email, password: PASSWORD } })).body.message).toBe(
      'This email is already registered',
    );
  });

  it('bans: the session ends at once, logins are refused until the unban, and the acts are on moderation-actions', async () => {
    const moderatorUuid = crypto.randomUUID();
    const moderator = await signedToken('moderator', moderatorUuid);
    const user = await signUp();
    const banned = await call('POST', `${U}/users/ban`, { token: moderator, body: { userUuid: user.userUuid } });
    expect(banned).toMatchObject({ status: 200, body: { userUuid: user.userUuid, banned: true, bannedUntil: null } });
    expect((await session(user.accessToken)).status).toBe(401);
    expect(await logIn(user.email)).toMatchObject({ status: 403, body: { statusCode: 403, message: 'This account is banned' } });

    expect(await call('POST', `${U}/users/unban`, { token: moderator, body: { userUuid: user.userUuid } })).toMatchObject({
      status: 200,
      body: { banned: false },
    });
    expect((await call('POST', `${U}/users/unban`, { token: moderator, body: { userUuid: user.userUuid } })).body.message).toBe(
      'This user is not banned',
    );
    const again = await logIn(user.email);
    expect(again.status).toBe(200);
    expect((await session(again.body.accessToken)).status).toBe(200);

    const events = await eventually(async () => {
      const seen = actionsFor(user.userUuid);
      return seen.length >= 2 ? seen : undefined;
    }, 20_000);
    expect(events.map((e) => e.actionType)).toEqual(['globalBan', 'globalUnBan']);
    expect(events[0]).toMatchObject({
      metadata: { eventType: 'moderation.action' },
      actionType: 'globalBan',
      role: { room: 'banned' },
      roomUuid: '',
      actorUserUuid: moderatorUuid,
      actorTokenRole: 'moderator',
      targetUserUuid: user.userUuid,
    });
    expect(events[0]!.raw).toMatchObject({
      actionType: ModerationActionType.MODERATION_ACTION_TYPE_GLOBAL_BAN,
      actorTokenRole: UserRole.USER_ROLE_MODERATOR,
    });
    expect(events[1]).toMatchObject({ previousRole: { room: 'banned' }, role: undefined });
  });

  it('kicks: the session ends at once, the user may sign in again, and the kick is on moderation-actions', async () => {
    const moderator = await signedToken('moderator');
    const user = await signUp();
    expect((await call('POST', `${U}/users/kick`, { token: moderator, body: { userUuid: user.userUuid } })).status).toBe(200);
    expect((await session(user.accessToken)).status).toBe(401);
    const again = await logIn(user.email);
    expect((await session(again.body.accessToken)).status).toBe(200);
    const [kick] = await eventually(async () => {
      const seen = actionsFor(user.userUuid);
      return seen.length ? seen : undefined;
    }, 20_000);
    expect(kick).toMatchObject({
      actionType: 'globalKick',
      role: { room: 'kicked' },
      targetUserUuid: user.userUuid,
      actorTokenRole: 'moderator',
    });
  });

  it("ends the sessions of the user's bot too: its token is refused within a second of its owner's ban, kick or deactivation", async () => {
    const moderator = await signedToken('moderator');
    const acts = {
      ban: (userUuid: string) => call('POST', `${U}/users/ban`, { token: moderator, body: { userUuid } }),
      kick: (userUuid: string) => call('POST', `${U}/users/kick`, { token: moderator, body: { userUuid } }),
      deactivate: (userUuid: string) => call('DELETE', `${U}/users/deactivate/${userUuid}`, { token: moderator }),
    };
    for (const [name, act] of Object.entries(acts)) {
      const owner = await signUp();
      const bot = await call('POST', `${U}/users/sign-up-bot`, {
        token: owner.accessToken,
        body: { botNickName: `Bot ${name}`, avatarId: 'robot-1', color: 'a1b2c3' },
      });
      expect(bot.status).toBe(201);
      const botToken = (await call('GET', `${U}/users/bot-token`, { token: owner.accessToken })).body.accessToken as string;
      expect((await session(botToken)).body).toMatchObject({ userUuid: bot.body.uuid, kind: 'bot' });
      expect((await act(owner.userUuid)).status).toBe(200);
      const ended = Date.now();
      while ((await session(botToken)).status !== 401) {
        expect(Date.now() - ended, `the bot's token still accepted after its owner's ${name}`).toBeLessThan(1_000);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  });

  it('ends a temporary ban by itself at its end time', async () => {
    const moderator = await signedToken('moderator');
    const user = await signUp();
    const past = await call('POST', `${U}/users/temporary-ban`, {
      token: moderator,
      body: { userUuid: user.userUuid, expirationTime: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past).toMatchObject({ status: 400, body: { message: 'The ban must end in the future' } });
    const endsAt = new Date(Date.now() + 2_000);
    const banned = await call('POST', `${U}/users/temporary-ban`, {
      token: moderator,
      body: { userUuid: user.userUuid, expirationTime: endsAt.toISOString() },
    });
    expect(banned).toMatchObject({ status: 200, body: { banned: true, bannedUntil: endsAt.toISOString() } });
    expect(await logIn(user.email)).toMatchObject({
      status: 403,
      body: { message: `This account is banned until ${endsAt.toISOString()}` },
    });
    await new Promise((resolve) => setTimeout(resolve, endsAt.getTime() - Date.now() + 100));
    expect((await logIn(user.email)).status).toBe(200);
    const [event] = await eventually(async () => {
      const seen = actionsFor(user.userUuid);
      return seen.length ? seen : undefined;
    }, 20_000);
    expect(event).toMatchObject({ actionType: 'temporaryBan', expirationTime: endsAt });
  });

  it('grants roles and capabilities within the moderator rank, refusing repeats with the spec message', async () => {
    const moderator = await signedToken('moderator');
    const admin = await signedToken('admin');
    const user = await signUp();
    const staff = await call('POST', `${U}/users/add-role`, { token: moderator, body: { userUuid: user.userUuid, role: 'staff' } });
    expect(staff).toMatchObject({ status: 200, body: { roles: ['user', 'staff'] } });
    expect(
      await call('POST', `${U}/users/add-role`, { token: moderator, body: { userUuid: user.userUuid, role: 'promoter' } }),
    ).toMatchObject({
      status: 200,
    });
    // The user now ranks as staff; a moderator still outranks them, and cannot grant above their own rank.
    expect(await call('POST', `${U}/users/add-role`, { token: admin, body: { userUuid: user.userUuid, role: 'staff' } })).toMatchObject({
      status: 403,
      body: { message: 'This user has already this role' },
    });
    expect((await call('POST', `${U}/users/add-role`, { token: moderator, body: { userUuid: user.userUuid, role: 'admin' } })).status).toBe(
      403,
    );
    expect((await call('POST', `${U}/users/add-role`, { token: admin, body: { userUuid: user.userUuid, role: 'bot' } })).status).toBe(400);
    expect(
      (await call('POST', `${U}/users/add-global-moderator-role`, { token: moderator, body: { userUuid: user.userUuid } })).status,
    ).toBe(403);

    const grant = await call('PUT', `${U}/users/${user.userUuid}/capabilities/uploadMusic`, { token: moderator });
    expect(grant).toMatchObject({ status: 200, body: { capabilities: ['uploadMusic'] } });
    expect(await call('PUT', `${U}/users/${user.userUuid}/capabilities/uploadMusic`, { token: moderator })).toMatchObject({
      status: 403,
      body: { message: 'This user has already this role' },
    });
    expect((await call('PUT', `${U}/users/${user.userUuid}/capabilities/flying`, { token: moderator })).status).toBe(400);
    const login = await logIn(user.email);
    const claims = JSON.parse(Buffer.from(login.body.accessToken.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ role: 'staff', capabilities: ['uploadMusic'] });
    expect(await call('DELETE', `${U}/users/${user.userUuid}/capabilities/uploadMusic`, { token: moderator })).toMatchObject({
      status: 200,
      body: { capabilities: [] },
    });
    expect((await call('DELETE', `${U}/users/${user.userUuid}/capabilities/uploadMusic`, { token: moderator })).status).toBe(404);
    const acts = await eventually(async () => {
      const seen = actionsFor(user.userUuid);
      return seen.length >= 4 ? seen : undefined;
    }, 20_000);
    expect(acts.map(({ actionType, previousRole, role }) => ({ actionType, previousRole, role }))).toEqual([
      { actionType: 'grantRole', previousRole: { user: 'user' }, role: { user: 'staff' } },
      { actionType: 'grantRole', previousRole: { user: 'staff' }, role: { user: 'promoter' } },
      { actionType: 'grantCapability', previousRole: undefined, role: { capability: 'uploadMusic' } },
      { actionType: 'removeCapability', previousRole: { capability: 'uploadMusic' }, role: undefined },
    ]);

    const global = await call('POST', `${U}/users/add-global-moderator-role`, { token: admin, body: { userUuid: user.userUuid } });
    expect(global).toMatchObject({ status: 200, body: { roles: ['user', 'staff', 'promoter', 'globalModerator'] } });
    // A global moderator now outranks the moderator, who may no longer act on them.
    expect(await call('POST', `${U}/users/ban`, { token: moderator, body: { userUuid: user.userUuid } })).toMatchObject({
      status: 403,
      body: { message: 'You cannot moderate a user ranked at or above your role' },
    });
    expect((await call('POST', `${U}/users/ban`, { token: moderator, body: { userUuid: crypto.randomUUID() } })).body.message).toBe(
      'User profile not found',
    );
  });

  it('keeps moderation comments about a user', async () => {
    const moderator = await signedToken('moderator');
    const user = await signUp();
    const other = await signUp();
    const first = await call('POST', `${U}/moderation-comments`, {
      token: moderator,
      body: { userUuid: user.userUuid, comment: 'spam in chat' },
    });
    expect(first).toMatchObject({ status: 201, body: { userUuid: user.userUuid, comment: 'spam in chat', createdAt: expect.any(String) } });
    await call('POST', `${U}/moderation-comments`, { token: moderator, body: { userUuid: other.userUuid, comment: 'fine' } });
    const list = await call('GET', `${U}/moderation-comments?userUuid=${user.userUuid}`, { token: moderator });
    expect(list.body).toEqual([first.body]);
    expect((await call('GET', `${U}/moderation-comments/${first.body.id}`, { token: moderator })).body).toEqual(first.body);
    expect((await call('GET', `${U}/moderation-comments/${crypto.randomUUID()}`, { token: moderator })).body.message).toBe(
      'Moderation comment not found',
    );
  });

  it('deactivates on request: listed, cancelled, deactivated (sessions end, logins refused), reactivated', async () => {
    const moderator = await signedToken('moderator');
    const user = await signUp();
    const requested = await call('POST', `${U}/users/request-deactivate`, { token: user.accessToken });
    expect(requested).toMatchObject({ status: 200, body: { deactivationRequestedAt: expect.any(String), deactivatedAt: null } });
    const listed = async () =>
      (await call('GET', `${U}/users/list-deactivate`, { token: moderator })).body.filter(
        (r: { userUuid: string }) => r.userUuid === user.userUuid,
      );
    expect(await listed()).toEqual([
      { userUuid: user.userUuid, email: user.email, nickname: expect.any(String), requestedAt: requested.body.deactivationRequestedAt },
    ]);
    await call('POST', `${U}/users/cancel-requested-deactivate`, { token: moderator, body: { userUuid: user.userUuid } });
    expect(await listed()).toEqual([]);
    expect(
      (await call('POST', `${U}/users/cancel-requested-deactivate`, { token: moderator, body: { userUuid: user.userUuid } })).body.message,
    ).toBe('This user has not requested deactivation');

    await call('POST', `${U}/users/request-deactivate`, { token: user.accessToken });
    const deactivated = await call('DELETE', `${U}/users/deactivate/${user.userUuid}`, { token: moderator });
    expect(deactivated).toMatchObject({ status: 200, body: { deactivatedAt: expect.any(String) } });
    expect(await listed()).toEqual([]);
    expect((await session(user.accessToken)).status).toBe(401);
    expect(await logIn(user.email)).toMatchObject({ status: 403, body: { message: 'This account is deactivated' } });

    expect(await call('POST', `${U}/users/reactivate/${user.userUuid}`, { token: moderator })).toMatchObject({
      status: 200,
      body: { deactivatedAt: null, deactivationRequestedAt: null },
    });
    expect((await logIn(user.email)).status).toBe(200);
    expect((await call('POST', `${U}/users/reactivate/${user.userUuid}`, { token: moderator })).body.message).toBe(
      'This user is not deactivated',
    );
  });
});
