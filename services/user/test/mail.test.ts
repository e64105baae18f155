import { createOrm, createRedis, dropDatabase, ensureDatabase, migrate, OutboxMessage, type MikroORM } from '@spinroom/platform';
import { eventually, isolatedRedisUrl, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailLinkEntity, UserEmailEntity } from '../src/db/mail-entities.js';
import { PgMailStore } from '../src/db/mail-store.js';
import { migrations } from '../src/db/migrations/index.js';
import { UserEntity } from '../src/db/user-entity.js';
import { PgUserStore } from '../src/db/user-store.js';
import type { Mailer, MailMessage } from '../src/domain/mail.js';
import { Emails, EmailInUseError } from '../src/domain/mail/emails.js';
import { linkUrl } from '../src/domain/mail/links.js';
import { secretHash } from '../src/domain/mail/secrets.js';
import { magicLinkMail, verificationCodeMail } from '../src/domain/mail/templates.js';
import { userSignedUp } from '../src/events/user-events.js';
import { RedisSendInterval } from '../src/mail/send-interval.js';
import { MailOff } from '../src/mail/mail-off.js';
import { SmtpMailer } from '../src/mail/smtp-mailer.js';
import { userServiceConfig } from '../src/config.js';
import { MagicLinks } from '../src/domain/mail/magic-links.js';
import { createLogger } from '@spinroom/platform';
import { Writable } from 'node:stream';

describe('mail templates and links', () => {
  it('writes plain text and HTML, escaping what a person typed', () => {
    const mail = verificationCodeMail('<b>x</b>@example.com', '012345');
    expect(mail.text).toContain('012345');
    expect(mail.html).toContain('012345');
    expect(mail.html).not.toContain('<b>x</b>');
    expect(mail.html).toContain('&#60;b&#62;x&#60;/b&#62;@example.com');
    const link = linkUrl('http://localhost:8080', 'magic-link', 'abc_-123');
    expect(link).toBe('http://localhost:8080/#/magic-link/abc_-123');
    expect(linkUrl('https://spinroom.example/app/', 'reset-password', 'abc_-123')).toBe(
      'https://spinroom.example/app/#/reset-password/abc_-123',
    );
    expect(magicLinkMail('a@example.com', link, 10).html).toContain(`href="${link}"`);
  });
});

/** Mail written to a list: the store's and the rules' behaviour is what is under test here; SMTP is test/e2e/mail.test.ts's. */
class SentMail implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
}

describe('the mail store on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('user_mail');
  let orm: MikroORM;
  let store: PgMailStore;
  let users: PgUserStore;
  let redis: ReturnType<typeof createRedis>;

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
    orm = await createOrm({ databaseUrl, entities: [UserEntity, UserEmailEntity, MailLinkEntity, OutboxMessage], migrations });
    await migrate(orm);
    store = new PgMailStore(orm);
    users = new PgUserStore(orm);
    redis = createRedis(await isolatedRedisUrl());
  });

  afterAll(async () => {
    redis.disconnect();
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  const account = (email: string) =>
    users.createAccount({ kind: 'user', email, passwordHash: 'x', nickname: 'someone', roles: ['user'] }, userSignedUp);

  it('uses a link once, even when two requests race for it, and never after it expires', async () => {
    const now = new Date();
    const link = { purpose: 'magic-link' as const, userUuid: null, email: 'race@example.com' };
    await store.create({ ...link, tokenHash: secretHash('race'), expiresAt: new Date(now.getTime() + 60_000) });
    const results = await Promise.all(Array.from({ length: 5 }, () => store.consume(secretHash('race'), 'magic-link', new Date())));
    expect(results.filter(Boolean)).toEqual([link]);

    await store.create({ ...link, tokenHash: secretHash('old'), expiresAt: new Date(now.getTime() - 1) });
    expect(await store.find(secretHash('old'), 'magic-link', now)).toBeNull();
    expect(await store.consume(secretHash('old'), 'magic-link', now)).toBeNull();
    // A link of one purpose opens nothing of another.
    await store.create({ ...link, tokenHash: secretHash('magic'), expiresAt: new Date(now.getTime() + 60_000) });
    expect(await store.consume(secretHash('magic'), 'password-reset', now)).toBeNull();
  });

  it('keeps a live address on one account: a sign-up takes over pending claims, not verified ones', async () => {
    const first = await account('first@example.com');
    const second = await account('second@example.com');
    const claim = { email: 'shared@example.com', type: 'work' as const, status: 'PENDING_VERIFICATION' as const, code: null };
    await store.add({ ...claim, userUuid: first.uuid });
    await expect(store.add({ ...claim, userUuid: second.uuid })).rejects.toBeInstanceOf(EmailInUseError);
    await store.add({ ...claim, userUuid: second.uuid }, { takeOver: true });
    expect((await store.list(first.uuid)).map((e) => e.email)).toEqual([]);
    expect((await store.list(second.uuid)).map((e) => e.email)).toEqual(['shared@example.com']);

    await store.markVerified(second.uuid, 'shared@example.com', new Date());
    await expect(store.add({ ...claim, userUuid: first.uuid }, { takeOver: true })).rejects.toBeInstanceOf(EmailInUseError);
  });

  it('verifies an address with its code once, and stops after five wrong codes', async () => {
    const user = await account('coded@example.com');
    const sent = new SentMail();
    const emails = new Emails(store, users, sent, new RedisSendInterval(redis, 60), createLogger('user', { level: 'silent' }));
    await emails.startAccount(user);
    await new Promise((resolve) => setImmediate(resolve)); // the mail goes out in the background
    const code = /\b(\d{6})\b/.exec(sent.sent[0]!.text)![1]!;
    const [pending] = await store.list(user.uuid);
    expect(pending).toMatchObject({ email: 'coded@example.com', status: 'PENDING_VERIFICATION', type: 'personal' });
    // Only the code's hash is stored.
    const [row] = await orm.em
      .fork()
      .execute<{ code_hash: string }[]>(`select "code_hash" from "user_email" where "id" = ?`, [pending!.id]);
    expect(row!.code_hash).toBe(secretHash(code));

    const verified = await Promise.all([emails.verify(user.uuid, code), emails.verify(user.uuid, code)].map((p) => p.catch((e) => e)));
    expect(verified.filter((v) => v instanceof Error)).toHaveLength(1);
    expect(await emails.isVerified(user.uuid, 'coded@example.com')).toBe(true);

    const other = await account('guessed@example.com');
    await emails.startAccount(other);
    await new Promise((resolve) => setImmediate(resolve));
    const otherCode = /\b(\d{6})\b/.exec(sent.sent[1]!.text)![1]!;
    const wrong = otherCode === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i += 1) await expect(emails.verify(other.uuid, wrong)).rejects.toMatchObject({ status: 403 });
    await expect(emails.verify(other.uuid, otherCode)).rejects.toMatchObject({ message: 'Email verification failed, incorrect code' });
  });

  it('logs a failed mail without its code or link', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('user', { level: 'trace' }, destination);
    const refused = new SmtpMailer('smtp://127.0.0.1:1', 'Spinroom <no-reply@spinroom.local>'); // nothing listens there
    const interval = new RedisSendInterval(redis, 60);
    const emails = new Emails(store, users, refused, interval, logger);
    const user = await account('unlucky@example.com');
    await emails.startAccount(user);
    const links = new MagicLinks({
      links: store,
      users,
      createPasswordless: () => Promise.reject(new Error('not here')),
      emails,
      grant: () => Promise.reject(new Error('not here')),
      mailer: refused,
      interval,
      logger,
      webUrl: 'http://localhost:8080',
    });
    await links.request('unlucky@example.com');
    await eventually(async () => (lines.filter((l) => l.includes('mail not sent')).length === 2 ? true : undefined));
    refused.close();

    const db = orm.em.fork();
    const [email] = await db.execute<{ code_hash: string }[]>(`select "code_hash" from "user_email" where "user_uuid" = ?`, [user.uuid]);
    const [link] = await db.execute<{ token_hash: string }[]>(`select "token_hash" from "mail_link" where "email" = 'unlucky@example.com'`);
    const codeHash = email!.code_hash;
    const tokenHash = link!.token_hash;
    const log = lines.join('');
    // Whatever in the log could be the code or the token, none is.
    for (const candidate of log.match(/[A-Za-z0-9_-]{6,}/g) ?? []) {
      expect(secretHash(candidate)).not.toBe(codeHash);
      expect(secretHash(candidate)).not.toBe(tokenHash);
    }
    expect(log).not.toContain('#/magic-link/');
  });

  it('sends nothing without an SMTP server (SMTP_URL unset), saying so by subject only', async () => {
    expect(userServiceConfig.SMTP_URL.safeParse(undefined)).toEqual({ success: true, data: undefined });
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const off = new MailOff(createLogger('user', { level: 'trace' }, destination));
    const emails = new Emails(store, users, off, new RedisSendInterval(redis, 60), createLogger('user', { level: 'silent' }));
    const user = await account('nowhere@example.com');
    await emails.startAccount(user);
    await eventually(async () => (lines.some((l) => l.includes('mail is off (SMTP_URL is not set): not sent')) ? true : undefined));
    const logged = lines.join('');
    expect(logged).toContain('"subject":');
    expect(logged).not.toContain('nowhere@example.com');
    const [email] = await orm.em
      .fork()
      .execute<{ code_hash: string }[]>(`select "code_hash" from "user_email" where "user_uuid" = ?`, [user.uuid]);
    for (const candidate of logged.match(/[A-Za-z0-9_-]{6,}/g) ?? []) expect(secretHash(candidate)).not.toBe(email!.code_hash);
  });
});
