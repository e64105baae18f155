// The admin panel and the community pages in the web client (issue 18), in
// Debian's Chromium against the whole platform: a global moderator (made one
// by an admin, then logged in again) sees the sections the room and audit
// services allow them and not the admins' ones, finds in the moderation log
// the role they granted (filtered by type and user: who did what to whom and
// when), creates a community and adds a room to it in bulk, and promotes the
// room; an admin sends a message to the people in the room (one listener in
// it) and opens a DJ's fans; an ordinary user is refused the panel (the page
// says so, and the server refuses their token) and joins and leaves the
// community through its page. axe-core finds nothing serious on the log, the
// communities section and a community's page. Screenshots go to test-artifacts/web/.
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../web/build.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, openSignedIn, WEB_ARTIFACTS as ARTIFACTS } from '../support/browser.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

const U = '/api/user-service';
const R = '/api/room-service';
const RUN = Math.random().toString(36).slice(2, 8);
const PASSWORD = 'correct horse battery';

/** Serious and critical WCAG 2.1 A/AA findings (as test/e2e/web-a11y.test.ts counts them), one line each. */
async function axeFindings(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe.skipIf(!HAS_CHROMIUM)('the admin panel and community pages in a browser', () => {
  const webDir = ensureWebBuild();
  const { call, platform } = usePlatform({ webDir });
  let browser: Browser;
  const pages: Page[] = [];
  const problems: string[] = [];
  type Person = { token: string; userUuid: string; email: string; nickname: string };
  let mo: Person; // a global moderator
  let ada: Person; // an admin
  let ana: Person; // a room's owner, a DJ with a fan
  let uli: Person; // an ordinary user
  let room: { slug: string; uuid: string; name: string };

  const signUp = async (nickname: string): Promise<Person> => {
    const email = freshEmail();
    const res = await call('POST', `${U}/users/sign-up`, { body: { email, password: PASSWORD, nickname } });
    expect(res.status).toBe(201);
    return { token: res.body.accessToken as string, userUuid: res.body.userUuid as string, email, nickname };
  };
  const open = async (who: Person, hash: string, expected: RegExp[] = []) => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !expected.some((e) => e.test(m.text()))) problems.push(`console: ${m.text()}`);
    });
    page.on('response', (r) => {
      const line = `${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`;
      if (r.status() >= 400 && !expected.some((e) => e.test(line))) problems.push(line);
    });
    pages.push(page);
    await openSignedIn(page, platform().baseUrl, who, hash);
    return page;
  };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    [mo, ada, ana, uli] = await Promise.all([signUp(`Mo ${RUN}`), signUp(`Ada ${RUN}`), signUp(`Ana ${RUN}`), signUp(`Uli ${RUN}`)]);
    // An admin makes Mo a global moderator; Mo's next login carries the role.
    const admin = await signedToken('admin');
    expect((await call('POST', `${U}/users/add-global-moderator-role`, { token: admin, body: { userUuid: mo.userUuid } })).status).toBe(
      200,
    );
    const login = await call('POST', `${U}/auth/login`, { body: { email: mo.email, password: PASSWORD } });
    expect(login.status).toBe(200);
    mo.token = login.body.accessToken as string;
    // Ada's session is an admin's (the user service's own admins are made by a superUser).
    ada.token = await signedToken('admin', ada.userUuid);
    const made = await call('POST', `${R}/rooms/infrastructure`, { token: ana.token, body: { name: `Late Owls ${RUN}` } });
    expect(made.status).toBe(201);
    room = { slug: made.body.slug as string, uuid: made.body.uuid as string, name: made.body.name as string };
    // Uli follows Ana (a DJ with one fan).
    expect((await call('POST', '/api/social-service/dj-fans', { token: uli.token, body: { djUuid: ana.userUuid } })).status).toBe(201);
  }, 60_000);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    for (const [i, page] of pages.entries()) {
      await page.screenshot({ path: join(ARTIFACTS, `failure-admin-${i}.png`), fullPage: true }).catch(() => {});
    }
    console.log(problems);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a global moderator finds the role they granted in the log, creates a community with a room and promotes the room', {
    timeout: 90_000,
  }, async () => {
    // Mo grants Uli the dj role in Ana's room: the room service publishes it, the audit service stores it.
    const grant = await call('POST', `${R}/roomUserRoles/${room.slug}`, { token: mo.token, body: { userUuid: uli.userUuid, role: 'dj' } });
    expect(grant.status).toBe(201);

    const page = await open(mo, '#/admin');
    const menu = page.getByRole('navigation', { name: 'Main' });
    await menu.getByRole('link', { name: 'Admin' }).waitFor();
    const sections = page.getByRole('navigation', { name: 'Admin' });
    await expect.poll(() => sections.getByRole('link').allTextContents()).toEqual(['Rooms', 'Communities', 'Events', 'Moderation log']);

    // The moderation log, filtered by type and by the user acted on.
    await sections.getByRole('link', { name: 'Moderation log' }).click();
    const filter = page.getByRole('form', { name: 'Filter' });
    await filter.getByLabel('Action').selectOption('grantRole');
    await filter.getByLabel("A user's id (who acted or was acted on)").fill(uli.userUuid);
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    await filter.getByLabel('From').fill(day);
    const row = page.getByRole('row').filter({ hasText: mo.nickname });
    await expect
      .poll(
        async () => {
          await filter.getByRole('button', { name: 'Filter', exact: true }).click();
          return row.count();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe(1);
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells.slice(1)).toEqual(['grantRole', `${mo.nickname} (globalModerator)`, uli.nickname, 'dj', room.uuid]);
    expect(cells[0]).toMatch(/\d/);
    await page.getByText('1 action', { exact: true }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'admin-moderation.png'), fullPage: true });
    expect(await axeFindings(page)).toEqual([]);

    // A community, created and given the room in bulk.
    await sections.getByRole('link', { name: 'Communities' }).click();
    const create = page.getByRole('form', { name: 'New community' });
    const slug = `owls-${RUN}`;
    await create.getByRole('textbox', { name: 'Name', exact: true }).fill(`Night Owls ${RUN}`);
    await create.getByLabel('Slug (made from the name when empty)').fill(slug);
    await create.getByLabel('Description').fill('Music after midnight');
    await create.getByRole('button', { name: 'Create' }).click();
    await create
      .getByRole('status')
      .filter({ hasText: `Night Owls ${RUN} is created` })
      .waitFor();
    await page.getByLabel('Search communities by name or slug').fill(slug);
    const entry = page.getByRole('listitem', { name: `Night Owls ${RUN}` });
    await entry.getByRole('button', { name: `Add rooms Night Owls ${RUN}` }).click();
    await entry.getByLabel('Room slugs or ids, one per line').fill(`${room.slug}\n${room.slug.toUpperCase()}`);
    await entry.getByRole('button', { name: 'Add rooms', exact: true }).click();
    await entry.getByRole('status').filter({ hasText: '1 room added' }).waitFor();
    expect(await axeFindings(page)).toEqual([]);
    const inCommunity = await call('GET', `${R}/communities/${slug}/rooms`, { token: uli.token });
    expect(inCommunity.body.rooms.map((r: { slug: string }) => r.slug)).toEqual([room.slug]);

    // The room, found by its slug and promoted.
    await sections.getByRole('link', { name: 'Rooms' }).click();
    await page.getByRole('textbox', { name: 'Open a room by its slug' }).fill(room.slug);
    await page.getByRole('form', { name: 'Open a room by its slug' }).getByRole('button', { name: 'Open' }).click();
    const found = page.getByRole('list', { name: 'The room asked for' });
    await found.getByRole('button', { name: `Promote ${room.name}` }).click();
    await found.getByRole('button', { name: `Stop promoting ${room.name}` }).waitFor();
    expect((await call('GET', `${R}/rooms/${room.slug}`, { token: ana.token })).body.promoted).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'admin-rooms.png'), fullPage: true });

    // The admins' sections are not Mo's: the page says so (and the social service would refuse him).
    await page.goto(`${platform().baseUrl}/#/admin/notifications`);
    await page.getByRole('alert').filter({ hasText: 'Your role cannot open this section of the admin panel.' }).waitFor();
    expect((await call('GET', '/api/social-service/admin/djs', { token: mo.token })).status).toBe(403);
    expect(problems).toEqual([]);
  });

  it("an admin tells the people in a room and opens a DJ's fans; a user is refused the panel and joins and leaves a community", {
    timeout: 90_000,
  }, async () => {
    // Uli listens in Ana's room.
    const listener = await open(uli, `#/room/${room.slug}`);
    await listener.getByRole('heading', { name: room.name }).first().waitFor();

    const page = await open(ada, '#/admin/notifications');
    const toRoom = page.getByRole('form', { name: "Message a room's people" });
    await toRoom.getByLabel("The room's slug").fill(room.slug);
    await toRoom.getByLabel('Message').fill('The late set starts in five minutes');
    await expect
      .poll(
        async () => {
          await toRoom.getByRole('button', { name: 'Send' }).click();
          return toRoom.getByRole('status').textContent({ timeout: 5_000 });
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe('Sent to 1 person');
    const sections = page.getByRole('navigation', { name: 'Admin' });
    await sections.getByRole('link', { name: 'DJs' }).click();
    await page.getByRole('textbox', { name: 'Open a DJ by their user id' }).fill(ana.userUuid);
    await page.getByRole('form', { name: 'Open a DJ by their user id' }).getByRole('button', { name: 'Open' }).click();
    const dj = page.getByRole('region', { name: ana.nickname });
    await dj.getByText('1 fan', { exact: false }).waitFor();
    await dj.getByRole('list', { name: 'Fans' }).getByRole('link', { name: uli.nickname }).waitFor();
    // Her plays, from the audit service's totals: none heard yet.
    await expect.poll(() => dj.getByTestId('dj-plays').textContent()).toBe('Heard 0 times by listeners, 0 min in all; 0 past 30 s');
    await page.screenshot({ path: join(ARTIFACTS, 'admin-djs.png'), fullPage: true });

    // An ordinary user: no Admin in the menu, the page refuses, and so does the server.
    await listener.goto(`${platform().baseUrl}/#/admin/moderation`);
    await listener.getByRole('alert').filter({ hasText: 'The admin panel is for staff, moderators and admins.' }).waitFor();
    expect(await listener.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).count()).toBe(0);
    expect((await call('GET', '/api/audit-service/moderation-actions', { token: uli.token })).status).toBe(403);

    // The community page, found by browsing: join, see it among one's communities, leave.
    const slug = `owls-${RUN}`;
    await listener.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Communities' }).click();
    await listener.getByRole('searchbox', { name: 'Search communities by name' }).fill(`owls ${RUN}`);
    await listener
      .getByRole('list', { name: 'Browse communities' })
      .getByRole('link', { name: `Night Owls ${RUN}` })
      .click();
    await listener.getByRole('heading', { name: `Night Owls ${RUN}` }).waitFor();
    await listener.getByRole('list', { name: 'Rooms' }).getByRole('link', { name: room.name }).waitFor();
    await listener.getByRole('button', { name: 'Join' }).click();
    await listener.getByText('You are a member (member)').waitFor();
    await listener.getByRole('list', { name: 'Members' }).getByRole('link', { name: uli.nickname }).waitFor();
    expect((await call('GET', `${R}/user-communities`, { token: uli.token })).body.map((c: { slug: string }) => c.slug)).toContain(slug);
    await listener.screenshot({ path: join(ARTIFACTS, 'community.png'), fullPage: true });
    expect(await axeFindings(listener)).toEqual([]);
    await listener.getByRole('button', { name: 'Leave' }).click();
    await listener.getByRole('button', { name: 'Join' }).waitFor();
    expect((await call('GET', `${R}/user-communities`, { token: uli.token })).body.map((c: { slug: string }) => c.slug)).not.toContain(
      slug,
    );
    expect(problems).toEqual([]);
  });
});
