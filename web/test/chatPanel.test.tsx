import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatPanel } from '../src/chat/ChatPanel';
import { editableMessage, fromComet, type ChatMessage } from '../src/chat/chatState';

const BO = 'b0000000-0000-4000-8000-00000000000b';

const message = (overrides: Partial<ChatMessage>): ChatMessage => ({
  id: '1',
  uuid: 'a',
  text: 'hi',
  userUuid: 'me',
  userName: 'Me',
  avatarId: 'raver',
  color: '#fff',
  sentAt: Date.now(),
  type: 'user',
  reactions: {},
  mentions: [],
  ...overrides,
});

describe('the chat panel', () => {
  afterEach(cleanup);
  const props = (messages: ChatMessage[]) => ({
    messages,
    meUuid: 'me',
    people: [
      { uuid: 'me', nickname: 'Me' },
      { uuid: BO, nickname: 'Bo' },
      { uuid: 'bea', nickname: 'Bea' },
    ],
    canPost: true,
    disabledUntil: null,
    isModerator: false,
    pinned: [],
    onDismissMention: vi.fn(),
    onSend: vi.fn(),
    onRetry: vi.fn(),
    onDiscard: vi.fn(),
    onEdit: vi.fn(),
    onReact: vi.fn(),
    onPin: vi.fn(),
  });
  const box = () => screen.getByLabelText<HTMLTextAreaElement>('Message');
  const type = (value: string) => {
    const input = box();
    input.focus();
    fireEvent.change(input, { target: { value, selectionStart: value.length, selectionEnd: value.length } });
  };

  it('sends on Enter (Shift+Enter is a new line) with mentions as tokens, and offers to edit the last own message', () => {
    const p = props([message({ text: 'first' })]);
    render(<ChatPanel {...p} />);
    type('hey @Bo');
    fireEvent.keyDown(box(), { key: 'Enter', shiftKey: true });
    expect(p.onSend).not.toHaveBeenCalled();
    type('hey @Bo\nyou there');
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(p.onSend).toHaveBeenCalledWith(`hey <@uid:${BO}>\nyou there`, 'user', [{ start: 4, userNickname: 'Bo', userUuid: BO }]);
    expect(box().value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.change(screen.getByLabelText('Edit'), { target: { value: 'first!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(p.onEdit).toHaveBeenCalledWith(expect.objectContaining({ uuid: 'a' }), 'first!', []);
  });

  it('completes a mention: @ and letters list the people in the room, arrows move, Enter picks, Escape closes', () => {
    const p = props([]);
    render(<ChatPanel {...p} />);
    type('hi @b');
    const list = screen.getByRole('listbox', { name: 'People to mention' });
    const options = within(list).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['@Bea', '@Bo']);
    expect(box().getAttribute('aria-controls')).toBe(list.id);
    expect(box().getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    fireEvent.keyDown(box(), { key: 'ArrowDown' });
    expect(box().getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    expect(options[1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(box().value).toBe('hi @Bo ');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(p.onSend).not.toHaveBeenCalled();
    // Never the writer; Escape closes the list without changing the text.
    type('hi @Bo @m');
    expect(screen.queryByRole('listbox')).toBeNull();
    type('hi @Bo @');
    expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(2);
    fireEvent.keyDown(box(), { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box().value).toBe('hi @Bo @');
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(p.onSend).toHaveBeenCalledWith(`hi <@uid:${BO}> @`, 'user', [{ start: 3, userNickname: 'Bo', userUuid: BO }]);
  });

  it('picks with Tab or a click too', () => {
    const p = props([]);
    render(<ChatPanel {...p} />);
    type('@be');
    fireEvent.keyDown(box(), { key: 'Tab' });
    expect(box().value).toBe('@Bea ');
    type('@Bea @bo');
    fireEvent.click(screen.getByRole('option', { name: '@Bo' }));
    expect(box().value).toBe('@Bea @Bo ');
  });

  it('shows tokens as @nickname, marks and announces a mention of the user', () => {
    const p = props([
      message({ uuid: 'x', userUuid: BO, userName: 'Bo', text: 'hey <@uid:me> and <@uid:gone>' }),
      message({ id: '2', uuid: 'y', userUuid: BO, userName: 'Bo', text: 'just <@uid:bea>' }),
    ]);
    const mention = p.messages[0]!;
    const { rerender } = render(<ChatPanel {...p} />);
    const log = screen.getByRole('log', { name: 'Chat history' });
    expect(log.textContent).toContain('hey @Me and @someone');
    expect(log.textContent).toContain('just @Bea');
    expect(log.textContent).not.toContain('<@uid:');
    const mine = log.querySelector('li[data-uuid="x"]')!;
    expect(mine.className).toContain('mentions-me');
    expect(mine.querySelector('mark.mention.me')?.textContent).toBe('@Me');
    expect(log.querySelector('li[data-uuid="y"]')!.className).not.toContain('mentions-me');
    expect(screen.getByRole('status').textContent).toBe('');
    rerender(<ChatPanel {...p} mention={mention} />);
    expect(screen.getByRole('status').textContent).toContain('Bo mentioned you');
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(document.activeElement).toBe(mine);
    expect(p.onDismissMention).toHaveBeenCalled();
  });

  it('keeps a failed message with a Retry button', () => {
    const failed = message({ id: 'temp-f', uuid: 'f', text: 'lost', failed: true, failure: 'Something went wrong, please try again' });
    const p = props([failed]);
    render(<ChatPanel {...p} />);
    expect(screen.getByText(/Not sent: Something went wrong/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(p.onRetry).toHaveBeenCalledWith(failed);
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(p.onDiscard).toHaveBeenCalledWith(failed);
  });

  it('never cuts a long message: a counter near the limit, and over it a refusal that says why', () => {
    const p = props([]);
    render(<ChatPanel {...p} />);
    type('x'.repeat(1700));
    expect(screen.queryByText(/characters/)).toBeNull();
    type('x'.repeat(1900));
    expect(screen.getByText('1900 of 2000 characters')).toBeTruthy();
    const long = 'x'.repeat(5000);
    type(long);
    expect(box().value).toHaveLength(5000);
    expect(box().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Too long to send: a message may hold at most 2000 characters (3000 too many).');
    fireEvent.keyDown(box(), { key: 'Enter' });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(p.onSend).not.toHaveBeenCalled();
    expect(box().value).toBe(long);
    // Mentions count as their tokens.
    type(`${'x'.repeat(1990)} @Bo`);
    expect(screen.getByRole('alert').textContent).toContain('(34 too many)');
  });

  it('is one tab stop for the whole history; arrow keys walk the messages and bring their controls into the tab order', () => {
    const p = props([
      message({ uuid: 'm1', id: '1', userUuid: BO, userName: 'Bo', reactions: { '🔥': [{ userUUID: BO }] } }),
      message({ uuid: 'm2', id: '2', userUuid: BO, userName: 'Bo', reactions: { '👍': [{ userUUID: BO }] } }),
      message({ uuid: 'm3', id: '3', userUuid: BO, userName: 'Bo' }),
    ]);
    render(<ChatPanel {...p} />);
    const log = screen.getByRole('log');
    const tabbable = () =>
      Array.from(log.querySelectorAll<HTMLElement>('button, summary, a, input, [tabindex]')).filter(
        (e) => e.tabIndex >= 0 && !(e as HTMLButtonElement).disabled,
      );
    expect(log.tabIndex).toBe(0);
    expect(tabbable()).toEqual([]);
    act(() => log.focus());
    fireEvent.keyDown(log, { key: 'ArrowUp' });
    expect(document.activeElement?.getAttribute('data-uuid')).toBe('m3');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    const second = log.querySelector<HTMLElement>('li[data-uuid="m2"]')!;
    expect(document.activeElement).toBe(second);
    expect(tabbable().every((e) => second.contains(e))).toBe(true);
    expect(tabbable().map((e) => e.getAttribute('aria-label'))).toContain('👍 1');
    fireEvent.keyDown(second, { key: 'Home' });
    expect(document.activeElement?.getAttribute('data-uuid')).toBe('m1');
    // Back on the log itself, no message's controls are tab stops: Tab goes on to the chat box.
    act(() => log.focus());
    expect(tabbable()).toEqual([]);
    fireEvent.keyDown(log, { key: 'End' });
    expect(document.activeElement?.getAttribute('data-uuid')).toBe('m3');
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(document.activeElement).toBe(box());
    expect(tabbable()).toEqual([]);
  });

  it('offers no edit after 20 s, shows reactions and notices, and hides the box while chat is disabled', () => {
    const p = props([
      message({ sentAt: Date.now() - 21_000, reactions: { '🔥': [{ userUUID: 'bo' }] } }),
      message({ id: '2', uuid: 'n', type: 'room', text: 'Be kind' }),
    ]);
    const { rerender } = render(<ChatPanel {...p} />);
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.getByRole('button', { name: '🔥 1' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByText(/Be kind/)).toBeTruthy();
    rerender(<ChatPanel {...p} disabledUntil={new Date(Date.now() + 60_000)} />);
    expect(screen.queryByLabelText('Message')).toBeNull();
    expect(screen.getByText(/Chat is disabled for you until/)).toBeTruthy();
  });

  it("shows a consumable's purchase as the chat service stores it: a cover across the message or small beside the words, never editable", async () => {
    const stored = (id: string, displayType: string, userUuid = 'me') =>
      fromComet({
        id,
        sentAt: Math.floor(Date.now() / 1000),
        data: {
          text: 'Confetti',
          entities: { sender: { entity: { uid: userUuid, name: userUuid === 'me' ? 'Me' : 'Bo', avatar: 'raver' } } },
          metadata: {
            chatMessage: {
              uuid: `purchase-${id}`,
              consumable: {
                id: `c-${displayType}`,
                name: displayType === 'cover' ? 'Confetti' : 'Air horn',
                tokenCost: 25,
                displayType,
                purchaseId: `p${id}`,
              },
            },
          },
        },
      });
    const cover = stored('7', 'cover', BO);
    const small = stored('8', 'small');
    expect(cover.consumable).toEqual({ id: 'c-cover', name: 'Confetti', tokenCost: 25, displayType: 'cover' });
    expect(
      fromComet({ id: '9', sentAt: 1, data: { text: 'x', metadata: { chatMessage: { consumable: 'forged' } } } }).consumable,
    ).toBeUndefined();
    // The shop's list gives the cover one its picture; the small one is drawn.
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify([{ id: 'c-cover', name: 'Confetti', imageUrl: '/api/merch-service/api/v1/consumables/files/f1' }])),
      ),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ChatPanel {...props([cover, small])} />
      </QueryClientProvider>,
    );
    const items = screen.getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('[data-display]')?.getAttribute('data-display'))).toEqual(['cover', 'small']);
    expect(items[0]!.textContent).toContain('Bo used Confetti');
    expect(items[1]!.textContent).toContain('Me used Air horn');
    await waitFor(() => expect(items[0]!.querySelector('img')?.getAttribute('src')).toBe('/api/merch-service/api/v1/consumables/files/f1'));
    expect(items[1]!.querySelector('img')).toBeNull();
    vi.unstubAllGlobals();
    // The last own message is the purchase's: nothing to edit.
    expect(editableMessage([cover, small], 'me')).toBeUndefined();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
  });
});
