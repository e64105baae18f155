// The social layer in Debian's Chromium (playwright-core) against the whole
// platform (issue 17): Bonnie follows Ana from the stage (the room's user menu)
// and sees her follower count, and invites her; Ana accepts on her Friends page,
// follows Bonnie from her profile and finds herself on Bonnie's followers page,
// and writes to her; Bonnie finds the message among her Friends conversations,
// unread, opens it and answers, and Ana sees it read and answered. Bonnie blocks
// Ana from her profile: Ana's next message is refused with the server's words,
// and Ana is on Bonnie's blocked list in settings. Screenshots go to test-artifacts/web/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../web/build.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, WEB_ARTIFACTS } from '../support/browser.js';
import { freshEmail, usePlatform } from '../support/platform.js';

const RUN = Math.random().toString(36).slice(2, 8);
const BLOCKED_DM = 'You cannot send direct messages to this user: one of you has blocked the other';

describe.skipIf(!HAS_CHROMIUM)('friends, fans, blocks and direct messages in a browser', () => {
  const webDir = ensureWebBuild();
  const { platform } = usePlatform({ webDir });
  let browser: Browser;
  let ana: Page;
  let bonnie: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(WEB_ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const page = async (width: number, height: number) => {
      const p = await (await browser.newContext({ viewport: { width, height } })).newPage();
      p.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      return p;
    };
    ana = await page(1280, 860);
    bonnie = await page(1280, 860);
  }, 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    await ana?.screenshot({ path: join(WEB_ARTIFACTS, 'failure-social-ana.png'), fullPage: true }).catch(() => {});
    await bonnie?.screenshot({ path: join(WEB_ARTIFACTS, 'failure-social-bonnie.png'), fullPage: true }).catch(() => {});
  });
  afterAll(async () => {
    await browser?.close();
  });

  const signUp = async (page: Page, nickname: string) => {
    await page.goto(platform().baseUrl);
    await page.getByLabel('Email').fill(freshEmail());
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByLabel('Nickname').fill(nickname);
    await page.getByRole('button', { name: 'Sign up' }).last().click();
    await page.getByRole('heading', { name: 'Public rooms' }).waitFor();
  };
  const uuidOf = async (page: Page) =>
    JSON.parse((await page.evaluate(() => localStorage.getItem('spinroom.session'))) ?? '{}').userUuid as string;
  const open = (page: Page, hash: string) => page.goto(`${platform().baseUrl}/${hash}`);

  it('befriends, follows from the stage and a profile, messages among friends, and a block refuses the next message', {
    timeout: 150_000,
  }, async () => {
    await signUp(ana, 'Ana');
    await signUp(bonnie, 'Bonnie');
    const anaUuid = await uuidOf(ana);
    const bonnieUuid = await uuidOf(bonnie);

    // Bonnie, in Ana's room, opens Ana's menu on the stage: follows her, sees the count, and invites her.
    await ana.getByLabel('Room name').fill(`Social ${RUN}`);
    await ana.getByRole('button', { name: 'Create' }).click();
    await ana.getByRole('toolbar', { name: 'Room controls' }).waitFor();
    await bonnie.goto(ana.url());
    await bonnie.getByRole('toolbar', { name: 'Room controls' }).waitFor();
    await bonnie.getByRole('button', { name: 'Ana', exact: true }).first().click();
    const menu = bonnie.getByRole('dialog', { name: 'Ana' });
    await menu.getByText('0 followers').waitFor();
    await menu.getByRole('button', { name: 'Follow', exact: true }).click();
    await menu.getByRole('button', { name: 'Unfollow', exact: true }).waitFor();
    await menu.getByText('1 follower', { exact: true }).waitFor();
    await menu.getByRole('button', { name: 'Add friend' }).click();
    await menu.getByText('Friend invitation sent').waitFor();
    await bonnie.screenshot({ path: join(WEB_ARTIFACTS, 'social-user-menu.png') });

    // Ana accepts on her Friends page.
    await ana.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Friends', exact: true }).click();
    const invitations = ana.getByRole('region', { name: 'Invitations for you' });
    await invitations.getByText('Bonnie').waitFor();
    await invitations.getByRole('button', { name: 'Accept' }).click();
    const friends = ana.getByRole('list', { name: 'Friends' });
    await friends.getByText('Bonnie').waitFor();
    await invitations.getByText('No pending invitations.').waitFor();
    await ana.screenshot({ path: join(WEB_ARTIFACTS, 'social-friends.png') });

    // Ana follows Bonnie from her profile and is on Bonnie's followers page.
    await open(ana, `#/profile/${bonnieUuid}`);
    await ana.getByRole('heading', { name: 'Bonnie' }).waitFor();
    await ana.getByText('You are friends').waitFor();
    await ana.getByRole('button', { name: 'Follow', exact: true }).click();
    await ana.getByRole('link', { name: '1 follower', exact: true }).click();
    const followers = ana.getByRole('list', { name: 'Followers of Bonnie' });
    await followers.getByText('Ana').waitFor();
    expect(await followers.getByRole('listitem').count()).toBe(1);
    expect(await ana.getByRole('button', { name: 'Show more' }).count()).toBe(0);

    // Ana writes to Bonnie from her friends list.
    await open(ana, '#/friends');
    await friends.getByRole('link', { name: 'Message' }).click();
    const anaLog = ana.getByRole('log', { name: 'Messages with Bonnie' });
    await anaLog.waitFor();
    const anaBox = ana.getByRole('textbox', { name: 'Write to Bonnie' });
    await anaBox.fill('hi Bonnie, thanks for the follow');
    await anaBox.press('Enter');
    await anaLog.getByText('hi Bonnie, thanks for the follow').waitFor();

    // Bonnie finds it among her Friends conversations, unread, and answers.
    await open(bonnie, '#/messages');
    const bonnieFriends = bonnie.getByRole('list', { name: 'Friends' });
    const fromAna = bonnieFriends.getByRole('listitem').filter({ hasText: 'Ana' });
    await fromAna.getByText('hi Bonnie, thanks for the follow').waitFor();
    await fromAna.getByText('1 unread').waitFor();
    expect(await bonnie.getByRole('list', { name: 'Others' }).getByRole('listitem').count()).toBe(0);
    await bonnie.screenshot({ path: join(WEB_ARTIFACTS, 'messages-friends.png') });
    await fromAna.getByRole('link').click();
    const bonnieLog = bonnie.getByRole('log', { name: 'Messages with Ana' });
    await bonnieLog.getByText('hi Bonnie, thanks for the follow').waitFor();
    const bonnieBox = bonnie.getByRole('textbox', { name: 'Write to Ana' });
    await bonnieBox.fill('any time!');
    await bonnieBox.press('Enter');
    await bonnieLog.getByText('any time!').waitFor();
    // Ana sees the answer, and that hers was read.
    await anaLog.getByText('any time!').waitFor();
    await anaLog.getByRole('listitem').filter({ hasText: 'hi Bonnie, thanks for the follow' }).getByText('Seen').waitFor();
    await ana.screenshot({ path: join(WEB_ARTIFACTS, 'messages-conversation.png') });

    // Bonnie blocks Ana from her profile: Ana's next message is refused in the server's words.
    await open(bonnie, `#/profile/${anaUuid}`);
    await bonnie.getByRole('heading', { name: 'Ana' }).waitFor();
    await bonnie.getByRole('button', { name: 'Block', exact: true }).click();
    await bonnie.getByRole('alertdialog', { name: 'Block' }).getByRole('button', { name: 'Yes, block' }).click();
    await bonnie.getByText('You blocked this person.').waitFor();
    await anaBox.fill('are you still there?');
    await anaBox.press('Enter');
    await expect.poll(() => ana.getByRole('alert').textContent()).toBe(BLOCKED_DM);
    expect(await anaLog.getByText('are you still there?').count()).toBe(0);
    // Ana is on Bonnie's blocked list; the block ended the friendship, and Bonnie no longer sees the conversation.
    await open(bonnie, '#/settings');
    await bonnie.getByRole('list', { name: 'Blocked people' }).getByText('Ana').waitFor();
    await open(bonnie, '#/messages');
    await bonnie.getByRole('region', { name: 'Friends' }).getByText('No conversations.').waitFor();
    expect(problems).toEqual([]);
  });
});
