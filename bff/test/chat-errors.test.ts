import { AppError, badRequest } from '@spinroom/platform/core';
import { describe, expect, it } from 'vitest';
import { cometChatErrorBody } from '../src/routes/chat/cometchat.js';

describe("/chat's CometChat error shape", () => {
  it("answers the error's own code with its message as written", () => {
    const error = new AppError(403, 'Chat is disabled for you: until 10:00', { code: 'ERR_CHAT_DISABLED' });
    expect(cometChatErrorBody(error)).toEqual({ error: { code: 'ERR_CHAT_DISABLED', message: 'Chat is disabled for you: until 10:00' } });
  });

  it('reads no code out of the message text', () => {
    expect(cometChatErrorBody(new AppError(409, 'ERR_LOOKS_CODED: but is not'))).toEqual({
      error: { code: 'ERR_BAD_REQUEST', message: 'ERR_LOOKS_CODED: but is not' },
    });
  });

  it('gives uncoded errors a code by status, validation lists in details', () => {
    expect(cometChatErrorBody(new AppError(404, 'Gone'))).toEqual({ error: { code: 'ERR_NOT_FOUND', message: 'Gone' } });
    expect(cometChatErrorBody(badRequest(['a: bad', 'b: bad']))).toEqual({
      error: { code: 'ERR_BAD_REQUEST', message: 'a: bad; b: bad', details: ['a: bad', 'b: bad'] },
    });
  });
});
