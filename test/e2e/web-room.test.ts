// The room as a place, in Debian's Chromium (playwright-core) against the
// whole platform (issue 15): each design draws its own stage; the booth names
// who plays, the time left and who is next, and a free seat seats whoever
// taps it; the waitlist, the recent songs with their votes and the room's
// description and rules are there; on a phone the chat box is on the first
// screen, every button is a 44 px target, "Skip to chat" goes to the chat box;
// on a desktop the stage's people are one tab stop and the chat follows the
// controls. Screenshots of three designs at desktop and phone widths go to
// test-artifacts/web/room-<design>-{desktop,phone}.png.
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@spinroom/platform/testing';
import { generateDemoSongs } from '../../scripts/seed/demo-songs.js';
import { ensureWebBuild } from '../../web/build.js';
import { DESIGN_LOOKS } from '../../web/src/stage/designs.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, openSignedIn, WEB_ARTIFACTS as ARTIFACTS } from '../support/browser.js';
import { freshEmail, usePlatform } from '../support/platform.js';

const RUN = Math.random().toString(36).slice(2, 8);
const FIRST = `Harbour Lights ${RUN}`;
const SECOND = `Low Tide ${RUN}`;
const ARTIST = `Deck Band ${RUN}`;
const PHONE = { width: 390, height: 844 };
const DESIGNS = ['FESTIVAL', 'YACHT', 'UNDERGROUND'] as const;
/** A touch target's least side (px), with a little room for sub-pixel layout. */
const TARGET = 43.5;

interface Account {
  token: string;
  userUuid: string;
}

describe.skipIf(!HAS_CHROMIUM)('the room as a place in a browser', () => {
  const webDir = ensureWebBuild();
  // Plays last the songs' 40 s (not the 25 s the other browser tests cut them to): the booth is read while one plays.
  const { call, platform } = usePlatform({ webDir, room: { LIVE_MAX_PLAY_MS: 60_000 } });
  let browser: Browser;
  let ana: Page; // desktop, DJ
  let bo: Page; // desktop, DJ
  let cy: Page; // phone, listener
  const accounts: Record<'ana' | 'bo' | 'cy', Account> = {} as never;
  const rooms: Record<string, string> = {};
  const problems: string[] = [];

  const signUp = async (nickname: string): Promise<Account> => {
    const res = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'correct horse battery', nickname },
    });
    expect(res.status).toBe(201);
    return { token: res.body.accessToken, userUuid: res.body.userUuid };
  };
  /** Uploads a demo song as `who`, waits until the catalogue has it, and answers its upload id. */
  const upload = async (who: Account, file: string, trackName: string) => {
    const form = new FormData();
    form.append('trackName', trackName);
    form.append('artistName', ARTIST);
    form.append('file', new Blob([new Uint8Array(readFileSync(file))], { type: 'audio/mpeg' }), 'song.mp3');
    const res = await fetch(`${platform().baseUrl}/api/upload-service/upload/song`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}` },
      body: form,
    });
    expect(res.status).toBe(201);
    const { songId } = (await res.json()) as { songId: string };
    await eventually(
      async () =>
        (await call('GET', `/api/playlist-service/song-data/${songId}/uploadService`, { token: who.token })).status === 200
          ? true
          : undefined,
      60_000,
      250,
    );
    return songId;
  };
  const queue = async (who: Account, songId: string) => {
    const res = await call('POST', '/api/playlist-service/crate/special/queue/songs', { token: who.token, body: { songs: [{ songId }] } });
    expect(res.status).toBe(201);
  };
  const room = async (design: (typeof DESIGNS)[number]) => {
    const res = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: accounts.ana.token,
      body: {
        name: `${design[0]}${design.slice(1).toLowerCase()} ${RUN}`,
        design,
        numberOfDjs: 2,
        description: `Sunset sets on the ${design.toLowerCase()} stage.`,
        maxSongLengthSeconds: 600,
        afkLimitMinutes: 15,
      },
    });
    expect(res.status).toBe(201);
    return res.body.slug as string;
  };
  /** Opens a room as someone signed in. */
  const open = async (page: Page, who: Account, slug: string) => {
    await openSignedIn(page, platform().baseUrl, who, `#/room/${slug}`);
    await page.getByRole('toolbar', { name: 'Room controls' }).waitFor();
  };
  const booth = (page: Page) => page.getByRole('region', { name: 'Now playing' });
  /** Every visible button-like control in the room whose box is smaller than a fingertip (this file is type-checked without the DOM's types). */
  const smallTargets = (page: Page) =>
    page.locator('.room').evaluate((root, least) => {
      type Box = { width: number; height: number };
      type Node = { getBoundingClientRect(): Box; getAttribute(name: string): string | null; textContent: string | null };
      const found: string[] = [];
      for (const element of (root as unknown as { querySelectorAll(s: string): Node[] }).querySelectorAll(
        'button, .button, summary, [role="tab"]',
      )) {
        const box = element.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue; // not shown (another tab)
        if (box.width < least || box.height < least)
          found.push(`${element.getAttribute('aria-label') ?? element.textContent?.trim()}: ${box.width}x${box.height}`);
      }
      return found;
    }, TARGET);
  const focused = (page: Page) =>
    page.evaluate(() => {
      type Node = { id: string; textContent: string | null; getAttribute(name: string): string | null; closest(s: string): unknown };
      const element = (globalThis as unknown as { document: { activeElement: Node | null } }).document.activeElement;
      return {
        id: element?.id ?? '',
        text: element?.textContent?.trim() ?? '',
        person: element?.getAttribute('data-user') ?? null,
        inChat: !!element?.closest('#room-chat'),
        inScene: !!element?.closest('.scene'),
      };
    });
  const scrollY = (page: Page) => page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY);

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const page = async (width: number, height: number) => {
      const p = await (await browser.newContext({ viewport: { width, height } })).newPage();
      p.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      p.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
      p.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
      return p;
    };
    ana = await page(1280, 860);
    bo = await page(1280, 860);
    cy = await page(PHONE.width, PHONE.height);
    accounts.ana = await signUp('Ana');
    accounts.bo = await signUp('Bo');
    accounts.cy = await signUp('Cy');
    const files = (await generateDemoSongs(join(tmpdir(), 'spinroom-web-e2e-songs'))).slice(0, 2).map((s) => s.file);
    const first = await upload(accounts.ana, files[0]!, FIRST);
    const second = await upload(accounts.ana, files[1]!, SECOND);
    await queue(accounts.ana, first);
    await queue(accounts.ana, second);
    await queue(accounts.bo, second);
    for (const design of DESIGNS) rooms[design] = await room(design);
  }, 180_000);
  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    for (const [name, page] of Object.entries({ ana, bo, cy }))
      await page?.screenshot({ path: join(ARTIFACTS, `failure-room-${name}.png`), fullPage: true }).catch(() => {});
    console.log(problems);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the booth names who plays, the time left and who is next; a free seat seats whoever taps it; the waitlist, recent songs and rules show', {
    timeout: 120_000,
  }, async () => {
    const slug = rooms.FESTIVAL!;
    await open(ana, accounts.ana, slug);
    await open(bo, accounts.bo, slug);
    await open(cy, accounts.cy, slug);

    // Ana takes a seat: her first song plays, she is named, and she is next with her second song.
    await ana.getByRole('toolbar', { name: 'Room controls' }).getByRole('button', { name: 'Take a seat' }).click();
    for (const page of [ana, bo, cy]) {
      await expect.poll(() => page.getByTestId('now-title').textContent(), { timeout: 15_000 }).toBe(FIRST);
      await expect.poll(() => booth(page).getByTestId('now-dj').textContent()).toBe('Ana is playing');
      await expect.poll(() => booth(page).getByTestId('next-up').textContent()).toMatch(new RegExp(`^Next up: Ana ${SECOND} — ${ARTIST}$`));
      expect(await booth(page).getByTestId('time-left').textContent()).toMatch(/^0:[0-5]\d left$/);
    }
    const artwork = await ana.locator('.booth .art').first().boundingBox();
    expect(artwork?.width).toBeGreaterThanOrEqual(48);

    // Bo taps the free seat on the stage (a nearer target than the toolbar): he is on the stage and next, with his song.
    await bo.locator('.scene .seat-invite').click();
    for (const page of [ana, bo, cy])
      await expect.poll(() => booth(page).getByTestId('next-up').textContent()).toMatch(new RegExp(`^Next up: Bo ${SECOND} — ${ARTIST}$`));
    await ana.getByRole('button', { name: 'Bo', exact: true }).waitFor();
    expect(await ana.locator('.scene .deck.live [data-user]').getAttribute('data-user')).toBe(accounts.ana.userUuid);

    // The stage is full: Cy joins the waitlist, which the people tab shows.
    await cy.getByRole('button', { name: 'Join the waitlist' }).click();
    await cy.getByRole('tab', { name: 'People' }).click();
    await expect.poll(() => cy.getByTestId('waitlist').textContent()).toBe('Cy');

    // Bo votes; Ana skips; the room's recent songs list her song with its vote.
    await bo.getByRole('button', { name: /Awesome/ }).click();
    await expect.poll(() => ana.getByTestId('likes').textContent()).toBe('1');
    await ana.getByRole('button', { name: 'Skip' }).click();
    await expect.poll(() => cy.getByTestId('now-title').textContent(), { timeout: 15_000 }).toBe(SECOND);
    await expect.poll(() => booth(cy).getByTestId('now-dj').textContent()).toBe('Bo is playing');
    await cy.getByRole('tab', { name: 'Room' }).click();
    const played = cy.locator('.recent-songs li', { hasText: FIRST });
    await played.waitFor({ timeout: 30_000 }); // the play reaches the list through the room's events (recentPlays.ts)
    expect(await played.getByRole('img').getAttribute('aria-label')).toBe('1 awesome, 0 lame, 0 likes');
    expect(await played.textContent()).toContain('played by Ana');
    expect(await cy.getByTestId('room-description').textContent()).toBe('Sunset sets on the festival stage.');
    expect(await cy.locator('.rules').textContent()).toContain('Songs up to 10:00 long');
    await cy.getByRole('tab', { name: 'Chat' }).click();
    expect(problems).toEqual([]);
  });

  it('draws each design its own way at desktop and phone widths', { timeout: 120_000 }, async () => {
    for (const design of DESIGNS) {
      const slug = rooms[design]!;
      if (design !== 'FESTIVAL') {
        await open(ana, accounts.ana, slug);
        await open(cy, accounts.cy, slug);
        await ana.getByRole('toolbar', { name: 'Room controls' }).getByRole('button', { name: 'Take a seat' }).click();
        for (const page of [ana, cy])
          await expect.poll(() => page.getByTestId('now-title').textContent(), { timeout: 15_000 }).not.toBeNull();
      }
      for (const page of [ana, cy]) {
        const scene = page.locator('.scene');
        expect(await scene.getAttribute('data-design')).toBe(design);
        // The drawing is the design's: its sky's top colour is the table's.
        expect((await scene.locator('svg.backdrop linearGradient stop').first().getAttribute('stop-color'))?.toUpperCase()).toBe(
          DESIGN_LOOKS[design].sky[0].toUpperCase(),
        );
      }
      for (const page of [ana, cy])
        await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      await ana.waitForTimeout(400);
      await ana.screenshot({ path: join(ARTIFACTS, `room-${design.toLowerCase()}-desktop.png`) });
      await cy.screenshot({ path: join(ARTIFACTS, `room-${design.toLowerCase()}-phone.png`) });
    }
    expect(problems).toEqual([]);
  });

  it('on a phone the chat box is on the first screen, every button is a 44 px target, and Skip to chat goes to the box', {
    timeout: 60_000,
  }, async () => {
    await open(cy, accounts.cy, rooms.FESTIVAL!);
    await cy.getByRole('textbox', { name: 'Message' }).fill('hello from the phone');
    await cy.getByRole('button', { name: 'Send' }).click();
    await cy.getByRole('log', { name: 'Chat history' }).locator('li', { hasText: 'hello from the phone' }).waitFor();

    // The chat tab, on the page as it opens: the box is in view without scrolling.
    await cy.reload();
    await cy.getByRole('tab', { name: 'People' }).click();
    await cy.getByRole('tab', { name: 'Chat' }).click();
    const box = await cy.getByRole('textbox', { name: 'Message' }).boundingBox();
    expect(await scrollY(cy)).toBe(0);
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);

    // Every button of every tab (the stage's, the controls', the chat's: reactions too) is at least 44 by 44.
    for (const tab of ['Chat', 'People', 'Room']) {
      await cy.getByRole('tab', { name: tab }).click();
      expect(await smallTargets(cy), tab).toEqual([]);
    }

    // The first Tab on the page is "Skip to chat"; it lands in the chat box, on the chat tab.
    await cy.reload();
    await cy.getByRole('toolbar', { name: 'Room controls' }).waitFor();
    await cy.keyboard.press('Tab');
    expect((await focused(cy)).text).toBe('Skip to chat');
    await cy.keyboard.press('Enter');
    await expect.poll(async () => (await focused(cy)).id).toBe('chat-input');
    expect(await cy.getByRole('tab', { name: 'Chat' }).getAttribute('aria-selected')).toBe('true');
    expect(problems).toEqual([]);
  });

  it('on a desktop the stage is one tab stop with arrow keys between people, and one Tab from the controls reaches the chat', {
    timeout: 60_000,
  }, async () => {
    await open(bo, accounts.bo, rooms.FESTIVAL!);
    await open(cy, accounts.cy, rooms.FESTIVAL!);
    await bo.getByRole('button', { name: 'Cy', exact: true }).waitFor();
    const people = bo.getByRole('group', { name: 'People in the room' });
    await people.locator('[tabindex="0"]').focus();
    const first = (await focused(bo)).person;
    expect(first).toBeTruthy();
    await bo.keyboard.press('ArrowRight');
    const second = (await focused(bo)).person;
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    // One Tab leaves the stage's people (however many there are).
    await bo.keyboard.press('Tab');
    expect((await focused(bo)).person).toBeNull();
    // From the controls' last one, Tab reaches the chat.
    await bo.getByRole('toolbar', { name: 'Room controls' }).getByRole('slider', { name: 'Volume' }).focus();
    await bo.keyboard.press('Tab');
    expect(await focused(bo)).toMatchObject({ inChat: true });
    expect(problems).toEqual([]);
  });
});
