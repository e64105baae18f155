import { hash, verify } from '@node-rs/argon2';
import { ERROR_CODES, type LimitDeclaration } from '@spinroom/platform';

/** Room passwords are argon2id-hashed like account passwords (services/user: 19 MiB, 2 passes, 1 lane). */
const ARGON2_OPTIONS = { memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashRoomPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export function roomPasswordMatches(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

/** Wrong room passwords per user and room (`<userUuid>:<roomUuid>`): past them even the right one waits. */
export const ROOM_PASSWORD_FAILURES: LimitDeclaration = {
  key: 'room:password-failures',
  message: (until) => `Too many wrong passwords for this room: try again after ${until.toISOString()}`,
  code: ERROR_CODES.roomPasswordLimited,
};
