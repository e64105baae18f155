// Errors as spec 002 §8 shows them to people: below 500 the server's message
// (or the first of a list), capitalised; from 500 a fixed sentence.
export const GENERIC_ERROR = 'Something went wrong, please try again';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly userMessage: string,
    readonly code?: string,
  ) {
    super(userMessage);
  }
}

const capitalise = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);

/** What a person reads for an answer with this status and body (REST or CometChat shape). */
export function userMessageFor(status: number, body: unknown): string {
  if (status >= 500 || status === 0) return GENERIC_ERROR;
  const b = body as { message?: unknown; error?: { message?: unknown } } | undefined;
  let message: unknown = b?.message ?? b?.error?.message;
  if (Array.isArray(message)) message = message[0];
  if (typeof message !== 'string' || !message.trim()) return GENERIC_ERROR;
  return capitalise(message.trim());
}

/** The message for anything thrown (network failures count as 500s). */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.userMessage;
  if (typeof error === 'string' && error) return capitalise(error);
  return GENERIC_ERROR;
}
