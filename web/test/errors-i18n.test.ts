import { describe, expect, it } from 'vitest';
import { ApiError, codeOf, errorCode, errorText, FeedError, GENERIC_ERROR, userMessageFor } from '../src/api/errors';
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

describe("errors in the reader's language", () => {
  // As the client builds them from a REST answer (src/api/client.ts).
  const fromAnswer = (status: number, body: unknown) => new ApiError(status, userMessageFor(status, body), codeOf(body));
  const wrongPassword = fromAnswer(401, {
    statusCode: 401,
    message: 'Incorrect email or password',
    error: 'Unauthorized',
    code: 'USER_BAD_CREDENTIALS',
  });

  it("shows a coded refusal by the dictionary's text for its code", () => {
    expect(errorText(wrongPassword, 'es')).toBe('Correo o contraseña incorrectos');
    expect(errorText(wrongPassword, 'en')).toBe('Incorrect email or password');
    const tooSoon = fromAnswer(403, {
      statusCode: 403,
      message: 'The minimum time has not yet elapsed since the last e-mail was sent',
      error: 'Forbidden',
      code: 'USER_EMAIL_TOO_SOON',
    });
    expect(errorText(tooSoon, 'es')).toBe('Aún no ha pasado el tiempo mínimo desde el último correo enviado');
    expect(errorText(new FeedError('You are banned from this room', 'ROOM_BANNED'), 'es')).toBe('Tienes vetada la entrada a esta sala');
  });

  it("shows the server's text for an uncoded refusal, and for a code the dictionary does not know", () => {
    const uncoded = fromAnswer(400, { statusCode: 400, message: 'Sign-up requires email and password', error: 'Bad Request' });
    expect(errorText(uncoded, 'es')).toBe('Sign-up requires email and password');
    const unknownCode = fromAnswer(429, {
      statusCode: 429,
      message: 'too many wrong passwords',
      error: 'Too Many Requests',
      code: 'X_NEW',
    });
    expect(errorText(unknownCode, 'es')).toBe('Too many wrong passwords');
    // CometChat's codes are the chat service's own: its message shows.
    const chat = fromAnswer(403, { error: { code: 'ERR_CHAT_DISABLED', message: 'chat is disabled until 10:00' } });
    expect(errorText(chat, 'es')).toBe('Chat is disabled until 10:00');
  });

  it("shows the fixed sentence and the client's own failures in the language", () => {
    expect(errorText(fromAnswer(500, { message: 'db exploded', code: 'USER_BAD_CREDENTIALS' }), 'es')).toBe(
      'Algo ha ido mal, inténtalo de nuevo',
    );
    expect(errorText(new ApiError(0, GENERIC_ERROR), 'es')).toBe('Algo ha ido mal, inténtalo de nuevo');
    expect(errorText(new ApiError(0, GENERIC_ERROR), 'en')).toBe(GENERIC_ERROR);
    expect(errorText(undefined, 'es')).toBe('Algo ha ido mal, inténtalo de nuevo');
    const lost = FeedError.local('feedLost');
    expect(lost.message).toBe('The connection to the room was lost');
    expect(errorText(lost, 'es')).toBe('Se ha perdido la conexión con la sala');
    expect(errorText(lost, 'en')).toBe('The connection to the room was lost');
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
