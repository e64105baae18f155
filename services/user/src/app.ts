import { UserServiceService } from '@spinroom/contracts/user/v1/user_service';
import { AvatarServiceClient } from '@spinroom/contracts/points/v1/avatars';
import { PointsWardrobe } from './adapters/wardrobe.js';
import { defineService, Limit, SessionRevocations, TokenIssuer, TokenVerifier } from '@spinroom/platform';
import { userServiceConfig } from './config.js';
import { userDatabase } from './db/database.js';
import { PgUserStore } from './db/user-store.js';
import { Accounts } from './domain/accounts.js';
import { LOGIN_FAILURES_PER_ACCOUNT, LoginLockout } from './domain/login-lockout.js';
import { PasswordHasher } from './domain/passwords.js';
import { CHAT_TOKEN_TTL_SECONDS, ServiceTokens } from './domain/service-tokens.js';
import { Sessions } from './domain/sessions.js';
import { SessionsServiceService } from '@spinroom/contracts/user/v1/sessions';
import { sessionsHandlers } from './rpc/sessions.js';
import { Bots } from './domain/sessions/bots.js';
import { PgBotStore } from './db/sessions-bot-store.js';
import { PgSessionEndingStore } from './db/session-ending-store.js';
import { USER_EVENTS_TOPIC, userSignedUp } from './events/user-events.js';
import { userServiceHandlers } from './rpc/user-service.js';
import { ProfilesServiceService } from '@spinroom/contracts/user/v1/profiles';
import { PgAdminUserStore, PgImageStore, PgProfileStore } from './db/profiles-store.js';
import { AdminUsers } from './domain/profiles/admin-users.js';
import { ProfileImages } from './domain/profiles/images.js';
import { ProfilePaths } from './domain/profiles/profile-paths.js';
import { SharpResizer } from '@spinroom/platform/media';
import { FolderImageFiles } from './media/images.js';
import { profilesHandlers } from './rpc/profiles.js';
import { MobileServiceService } from '@spinroom/contracts/user/v1/mobile';
import { buildMobile } from './mobile/build.js';
import { mobileHandlers } from './rpc/mobile.js';
import { ModerationServiceService } from '@spinroom/contracts/user/v1/moderation';
import { PgModerationStore, PgVoucherStore } from './db/moderation-store.js';
import { Moderation } from './domain/moderation/moderation.js';
import { Vouchers } from './domain/moderation/vouchers.js';
import { MODERATION_ACTIONS_TOPIC, moderationAction } from './events/moderation-actions.js';
import { moderationHandlers } from './rpc/moderation.js';
import { ProvidersServiceService } from '@spinroom/contracts/user/v1/providers';
import { buildProviders } from './adapters/providers.js';
import { providersHandlers } from './rpc/providers.js';
import { MailServiceService } from '@spinroom/contracts/user/v1/mail';
import { buildMail } from './mail/build.js';
import { mailHandlers } from './rpc/mail.js';
import { PasskeysServiceService } from '@spinroom/contracts/user/v1/passkeys';
import { PgPasskeyStore, RedisChallengeStore } from './db/passkeys-store.js';
import { Passkeys } from './domain/passkeys/passkeys.js';
import { passkeysHandlers } from './rpc/passkeys.js';

/**
 * The user service signs every token, so it verifies its callers with its own
 * key. The service kit opens and closes the rest (packages/platform/src/kit).
 */
export const userService = defineService('user', {
  config: userServiceConfig,
  peers: { points: AvatarServiceClient },
  database: userDatabase,
  topics: [USER_EVENTS_TOPIC, MODERATION_ACTIONS_TOPIC],
  async build({ config, orm, redis, relay, unary, logger, clientStream, peers }) {
    const tokens = await TokenIssuer.fromPem(config.JWT_PRIVATE_KEY, {
      issuer: config.JWT_ISSUER,
      ttlSeconds: config.JWT_TTL_SECONDS,
      previousPublicKeysPem: config.JWT_PREVIOUS_PUBLIC_KEYS,
    });
    const revocations = new SessionRevocations(redis);
    const botStore = new PgBotStore(orm, () => relay.nudge());
    const botOf = async (ownerUuid: string) => (await botStore.findBotOf(ownerUuid))?.uuid ?? null;
    const sessions = new Sessions(
      revocations,
      Math.max(config.JWT_TTL_SECONDS, CHAT_TOKEN_TTL_SECONDS),
      new PgSessionEndingStore(orm),
      botOf,
    );
    // Ended sessions back in Redis when it lost them: checked now and every few seconds, rewritten every few minutes (one pass at a time).
    let keeping = Promise.resolve();
    const keepEnds = (always: boolean) => {
      keeping = keeping.then(() =>
        sessions.keepEndsInRedis(always).then(
          (restored) => {
            if (restored !== null && !always) logger.warn({ restored }, 'Redis had lost the ended sessions: written back');
          },
          (error: unknown) => logger.error({ err: error }, 'ended sessions not checked in Redis'),
        ),
      );
    };
    keepEnds(false);
    const keepers = [
      setInterval(() => keepEnds(false), config.SESSION_ENDS_CHECK_MS),
      setInterval(() => keepEnds(true), config.SESSION_ENDS_REWRITE_MS),
    ];
    const bots = new Bots(botStore, tokens, userSignedUp);
    const store = new PgUserStore(orm, () => relay.nudge());
    const hasher = new PasswordHasher(config.PASSWORD_HASH_CONCURRENCY);
    const wardrobe = new PointsWardrobe(peers.points);
    const accounts = new Accounts(
      store,
      hasher,
      tokens,
      userSignedUp,
      {
        checkFree: (email) => mail.emails.checkFree(email),
        start: (user, origin) => mail.emails.startAccount(user, origin),
      },
      wardrobe,
    );
    const mail = buildMail(config, { orm, redis, logger, accounts, users: store, hasher, endSessions: sessions.endSessions });
    const logIns = new LoginLockout(accounts, new Limit(redis, LOGIN_FAILURES_PER_ACCOUNT, config.LIMIT_LOGIN_FAILURES_PER_ACCOUNT));
    const serviceTokens = new ServiceTokens(tokens, config.SERVICE_CLIENT_SECRET);
    const mobile = buildMobile(config, {
      orm,
      redis,
      logger,
      accounts,
      announceSignUp: userSignedUp,
      onEventsCommitted: () => relay.nudge(),
    });
    const moderation = new Moderation(new PgModerationStore(orm, () => relay.nudge()), moderationAction, sessions.endSessionsWithBot);
    const vouchers = new Vouchers(new PgVoucherStore(orm, () => relay.nudge()), accounts);
    const providers = buildProviders(config, { orm, accounts, store, announceSignUp: userSignedUp });
    const profileStore = new PgProfileStore(orm, store);
    const profiles = new ProfilePaths(profileStore, wardrobe);
    const images = new ProfileImages(
      new PgImageStore(orm),
      new FolderImageFiles(config.USER_IMAGES_DIR),
      new SharpResizer(),
      profileStore,
      config.USER_IMAGE_MAX_BYTES,
    );
    const admin = new AdminUsers(new PgAdminUserStore(orm));
    const passkeys = new Passkeys({
      store: new PgPasskeyStore(orm),
      challenges: new RedisChallengeStore(redis),
      relyingParty: { rpId: config.WEBAUTHN_RP_ID, rpName: config.WEBAUTHN_RP_NAME, origins: config.WEBAUTHN_ORIGINS },
      account: (uuid) => accounts.profile(uuid),
      grant: (user) => accounts.grant(user),
    });
    return {
      services: [
        {
          name: 'spinroom.user.v1.ProfilesService',
          definition: ProfilesServiceService,
          implementation: profilesHandlers({ profiles, images, admin, imageMaxBytes: config.USER_IMAGE_MAX_BYTES, unary, clientStream }),
        },
        { name: 'spinroom.user.v1.MobileService', definition: MobileServiceService, implementation: mobileHandlers({ ...mobile, unary }) },
        {
          name: 'spinroom.user.v1.ModerationService',
          definition: ModerationServiceService,
          implementation: moderationHandlers({ moderation, vouchers, unary }),
        },
        {
          name: 'spinroom.user.v1.PasskeysService',
          definition: PasskeysServiceService,
          implementation: passkeysHandlers({ passkeys, unary }),
        },
        {
          name: 'spinroom.user.v1.MailService',
          definition: MailServiceService,
          implementation: mailHandlers({ ...mail, accounts, unary }),
        },
        {
          name: 'spinroom.user.v1.SessionsService',
          definition: SessionsServiceService,
          implementation: sessionsHandlers({ sessions, bots, unary }),
        },
        {
          name: 'spinroom.user.v1.ProvidersService',
          definition: ProvidersServiceService,
          implementation: providersHandlers({ ...providers, accounts, tokens, unary }),
        },
        {
          name: 'spinroom.user.v1.UserService',
          definition: UserServiceService,
          implementation: userServiceHandlers({ accounts, logIns, tokens, serviceTokens, unary }),
        },
      ],
      async stop() {
        for (const keeper of keepers) clearInterval(keeper);
        await keeping;
        mail.stop();
      },
      verifier: await TokenVerifier.fromKeys(
        tokens.publishedKeys.map((key) => key.publicKeyPem),
        { issuer: config.JWT_ISSUER, sessions: revocations },
      ),
    };
  },
});

export type RunningUserService = Awaited<ReturnType<typeof userService.start>>;
export const startUserService = userService.start;
