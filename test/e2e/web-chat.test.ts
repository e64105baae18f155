// The room's chat in Debian's Chromium (playwright-core) against the whole
// platform: Ana (a desktop window) mentions Bonnie (a phone) by completing
// "@bo", and what is sent carries the original's `<@uid:...>` token; Bonnie
// sees "@Bonnie", highlighted, with an alert. Bonnie sends while offline: the
// message stays, marked, with Retry, which sends it once she is back. An
// over-long paste is kept whole and refused with the reason; the history is one
// tab stop before the chat box. Screenshots go to test-artifacts/web/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../web/build.js';
import { freshEmail, usePlatform } from '../support/platform.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM } from '../support/browser.js';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'web');
const RUN = Math.random().toString(36).slice(2, 8);
/** What Chromium reports while the page is offline on purpose. */
const OFFLINE_NOISE = /ERR_INTERNET_DISCONNECTED|ERR_NETWORK_CHANGED|WebSocket/;

describe.skipIf(!HAS_CHROMIUM)('the room chat in a browser', () => {
  const webDir = ensureWebBuild();
  const { platform } = usePlatform({ webDir });
  let browser: Browser;
  let ana: Page;
  let bonnie: Page;
  const problems: string[] = [];
  let offline = false;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const page = async (width: number, height: number) => {
      const p = await (await browser.newContext({ viewport: { width, height } })).newPage();
      const note = (problem: string) => {
        if (!(offline && OFFLINE_NOISE.test(problem))) problems.push(problem);
      };
      p.on('pageerror', (error) => note(`pageerror: ${error.message}`));
      p.on('console', (m) => m.type() === 'error' && note(`console: ${m.text()}`));
      p.on('response', (r) => r.status() >= 400 && note(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
      return p;
    };
    ana = await page(1280, 860);
    bonnie = await page(390, 844); // a phone
  }, 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    await ana?.screenshot({ path: join(ARTIFACTS, 'failure-chat-ana.png'), fullPage: true }).catch(() => {});
    await bonnie?.screenshot({ path: join(ARTIFACTS, 'failure-chat-bonnie.png'), fullPage: true }).catch(() => {});
    console.log(problems);
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
  const chatBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });
  const log = (page: Page) => page.getByRole('log', { name: 'Chat history' });
  /** The focused element's id and text (this file is type-checked without the DOM's types). */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const element = (globalThis as unknown as { document: { activeElement: { id: string; textContent: string | null } | null } }).document
        .activeElement;
      return { id: element?.id ?? '', text: element?.textContent ?? '' };
    });
  const isSend = (r: Request) => r.method() === 'POST' && new URL(r.url()).pathname === '/chat/v3.0/messages';

  it('mentions by completion, alerts the one mentioned, retries a failed send, refuses an over-long one', {
    timeout: 120_000,
  }, async () => {
    await signUp(ana, 'Ana');
    await signUp(bonnie, 'Bonnie');
    const bonnieUuid = await uuidOf(bonnie);
    const anaUuid = await uuidOf(ana);

    await ana.getByLabel('Room name').fill(`Chat ${RUN}`);
    await ana.getByRole('button', { name: 'Create' }).click();
    await ana.getByRole('toolbar', { name: 'Room controls' }).waitFor();
    await bonnie.goto(ana.url());
    await bonnie.getByRole('toolbar', { name: 'Room controls' }).waitFor();
    await ana.getByRole('button', { name: 'Bonnie', exact: true }).waitFor();
    await chatBox(ana).waitFor();
    await chatBox(bonnie).waitFor();

    // Ana types "@bo", picks Bonnie from the list with Enter, and sends with Enter.
    await chatBox(ana).click();
    await chatBox(ana).pressSequentially('hey @bo');
    const suggestions = ana.getByRole('listbox', { name: 'People to mention' });
    await expect.poll(() => suggestions.getByRole('option').allTextContents()).toEqual(['@Bonnie']);
    expect(await chatBox(ana).getAttribute('aria-activedescendant')).toBe(await suggestions.getByRole('option').getAttribute('id'));
    await chatBox(ana).press('Enter');
    await expect.poll(() => chatBox(ana).inputValue()).toBe('hey @Bonnie ');
    await chatBox(ana).pressSequentially('listen to this');
    const sent = ana.waitForRequest(isSend);
    await chatBox(ana).press('Enter');
    const body = (await sent).postDataJSON() as { data: { text: string; metadata: { chatMessage: { mentions: unknown[] } } } };
    expect(body.data.text).toBe(`hey <@uid:${bonnieUuid}> listen to this`);
    expect(body.data.metadata.chatMessage.mentions).toEqual([{ start: 4, userNickname: 'Bonnie', userUuid: bonnieUuid }]);
    expect(await chatBox(ana).inputValue()).toBe('');

    // Bonnie sees @Bonnie, not the token, marked as hers, and an alert.
    const toBonnie = log(bonnie).locator('li.mentions-me', { hasText: 'listen to this' });
    await toBonnie.waitFor();
    expect(await toBonnie.locator('p.text').textContent()).toBe('hey @Bonnie listen to this');
    expect(await toBonnie.locator('mark.mention.me').textContent()).toBe('@Bonnie');
    expect(await log(bonnie).textContent()).not.toContain('<@uid:');
    await bonnie.getByRole('status').filter({ hasText: 'Ana mentioned you' }).waitFor();
    // Ana's own copy shows the mention too, unhighlighted.
    await ana.locator('mark.mention', { hasText: '@Bonnie' }).waitFor();
    expect(await log(ana).locator('li.mentions-me').count()).toBe(0);

    // Bonnie goes offline and answers, mentioning Ana by completion (Tab picks): the message stays, marked, with Retry.
    offline = true;
    await bonnie.context().setOffline(true);
    await chatBox(bonnie).click();
    await chatBox(bonnie).pressSequentially('thanks @an');
    await bonnie.getByRole('option', { name: '@Ana' }).waitFor();
    await chatBox(bonnie).press('Tab');
    await chatBox(bonnie).pressSequentially('back soon');
    await chatBox(bonnie).press('Enter');
    const failed = log(bonnie).locator('li.failed', { hasText: 'back soon' });
    await failed.waitFor();
    expect(await failed.textContent()).toContain('Not sent: Something went wrong, please try again');
    expect(await failed.locator('p.text').textContent()).toBe('thanks @Ana back soon');
    await bonnie.waitForTimeout(500);
    await bonnie.context().setOffline(false);
    offline = false;
    const resent = bonnie.waitForRequest(isSend);
    await failed.getByRole('button', { name: 'Retry' }).click();
    expect(((await resent).postDataJSON() as { data: { text: string } }).data.text).toBe(`thanks <@uid:${anaUuid}> back soon`);
    const delivered = log(bonnie).locator('li.message', { hasText: 'back soon' });
    await expect.poll(() => delivered.getAttribute('class'), { timeout: 10_000 }).toBe('message');
    expect(await delivered.getAttribute('data-message-id')).toMatch(/^\d+$/);
    expect(await log(bonnie).locator('li', { hasText: 'back soon' }).count()).toBe(1);
    // Ana gets it once, highlighted, with her alert.
    const toAna = log(ana).locator('li.mentions-me', { hasText: 'back soon' });
    await toAna.waitFor({ timeout: 10_000 });
    expect(await log(ana).locator('li', { hasText: 'back soon' }).count()).toBe(1);
    await ana.getByRole('status').filter({ hasText: 'Bonnie mentioned you' }).waitFor();

    // A 5,000-character paste stays whole, the counter and the reason show, and nothing is sent.
    const long = 'x'.repeat(5000);
    await chatBox(ana).fill(long);
    expect((await chatBox(ana).inputValue()).length).toBe(5000);
    await ana.getByText('5000 of 2000 characters').waitFor();
    await ana
      .getByRole('alert')
      .filter({ hasText: 'Too long to send: a message may hold at most 2000 characters (3000 too many).' })
      .waitFor();
    let sentLong = false;
    const watch = (r: Request) => {
      if (isSend(r)) sentLong = true;
    };
    ana.on('request', watch);
    await chatBox(ana).press('Enter');
    await ana.getByRole('button', { name: 'Send' }).click();
    await ana.waitForTimeout(500);
    ana.off('request', watch);
    expect(sentLong).toBe(false);
    expect((await chatBox(ana).inputValue()).length).toBe(5000);
    await chatBox(ana).fill('');

    // The history is one tab stop: from the log, Tab reaches the chat box; arrows walk the messages.
    await log(ana).focus();
    await ana.keyboard.press('ArrowUp');
    expect((await focused(ana)).text).toContain('back soon');
    await log(ana).focus();
    await ana.keyboard.press('Tab');
    expect((await focused(ana)).id).toBe('chat-input');
    // Shift+Enter is a new line; Enter sends both lines.
    await chatBox(ana).pressSequentially('two');
    await chatBox(ana).press('Shift+Enter');
    await chatBox(ana).pressSequentially('lines');
    expect(await chatBox(ana).inputValue()).toBe('two\nlines');
    await chatBox(ana).press('Enter');
    await log(bonnie)
      .locator('li', { hasText: /two\s+lines/ })
      .waitFor();

    await ana.screenshot({ path: join(ARTIFACTS, 'chat.png') });
    await bonnie.screenshot({ path: join(ARTIFACTS, 'chat-phone.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});
