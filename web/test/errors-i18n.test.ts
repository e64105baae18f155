import { describe, expect, it } from 'vitest';
import { ApiError, codeOf, errorCode, FeedError, GENERIC_ERROR, userMessageFor } from '../src/api/errors';
import { initialLocale } from '../src/i18n/i18n';

describe('errors as spec 002 shows them', () => {
  it("shows the server's message below 500, capitalised, the first of a list", () => {
    expect(userMessageFor(403, { statusCode: 403, message: 'this email is already registered', error: 'Forbidden' })).toBe(
      'This email is already registered',
    );
    expect(userMessageFor(400, { message: ['name: too short', 'x'] })).toBe('Name: too short');
    expect(userMessageFor(403, { error: { code: 'ERR_CHAT_DISABLED', message: 'chat is disabled until 10:00' } })).toBe(
      'Chat is disabled until 10:00',
    );
  });
  it("reads the answer's code from either shape, never from the text", () => {
    expect(codeOf({ statusCode: 403, message: 'This room requires a password', error: 'Forbidden', code: 'ROOM_PASSWORD_REQUIRED' })).toBe(
      'ROOM_PASSWORD_REQUIRED',
    );
    expect(codeOf({ error: { code: 'ERR_CHAT_DISABLED', message: 'x' } })).toBe('ERR_CHAT_DISABLED');
    expect(codeOf({ statusCode: 403, message: 'ROOM_KICKED: you were kicked', error: 'Forbidden' })).toBeUndefined();
    expect(errorCode(new ApiError(403, 'x', 'ROOM_BANNED'))).toBe('ROOM_BANNED');
    expect(errorCode(new FeedError('x', 'ROOM_KICKED'))).toBe('ROOM_KICKED');
    expect(errorCode('kicked')).toBeUndefined();
  });
  it('shows one sentence from 500 and for network failures', () => {
    expect(userMessageFor(500, { message: 'db exploded' })).toBe(GENERIC_ERROR);
    expect(userMessageFor(503, undefined)).toBe('Something went wrong, please try again');
    expect(userMessageFor(0, undefined)).toBe(GENERIC_ERROR);
  });
});

describe('language', () => {
  const storage = () => {
    const map = new Map<string, string>();
    return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
  };
  it('takes ?lang= and stores it, else the stored one, else en', () => {
    const s = storage();
    expect(initialLocale('', s)).toBe('en');
    expect(initialLocale('?lang=es', s)).toBe('es');
    expect(initialLocale('', s)).toBe('es');
    expect(initialLocale('?lang=fr', s)).toBe('es');
  });
});
