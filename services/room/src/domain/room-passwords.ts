import { hash, verify } from '@node-rs/argon2';

/** Room passwords are argon2id-hashed like account passwords (services/user: 19 MiB, 2 passes, 1 lane). */
const ARGON2_OPTIONS = { memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashRoomPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export function roomPasswordMatches(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}
