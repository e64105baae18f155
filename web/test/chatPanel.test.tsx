import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatPanel } from '../src/chat/ChatPanel';
import type { ChatMessage } from '../src/chat/chatState';

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
    people: [{ uuid: 'bo', nickname: 'Bo' }],
    canPost: true,
    disabledUntil: null,
    isModerator: false,
    pinned: [],
    onSend: vi.fn(),
    onEdit: vi.fn(),
    onReact: vi.fn(),
    onPin: vi.fn(),
  });

  it('sends with mentions, and offers to edit the last own message', () => {
    const p = props([message({ text: 'first' })]);
    render(<ChatPanel {...p} />);
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'hey @Bo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(p.onSend).toHaveBeenCalledWith('hey @Bo', 'user', [{ start: 4, userNickname: 'Bo', userUuid: 'bo' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.change(screen.getByLabelText('Edit'), { target: { value: 'first!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(p.onEdit).toHaveBeenCalledWith(expect.objectContaining({ uuid: 'a' }), 'first!', []);
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
});
