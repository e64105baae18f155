import { profileToJson } from '@spinroom/contracts/users';
import type { UserProfile } from '@spinroom/contracts/user/v1/user_service';
import type { z } from 'zod';
import type { UserProfileSchema } from './schemas.js';

/** A profile as REST clients read it: the one mapping (contracts/users), which the room feed carries too. */
export function toProfileJson(profile: UserProfile): z.infer<typeof UserProfileSchema> {
  return profileToJson(profile);
}
