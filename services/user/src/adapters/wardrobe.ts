import type { AvatarServiceClient } from '@spinroom/contracts/points/v1/avatars';
import { isAppError, type PromiseClient } from '@spinroom/platform';
import type { AvatarFit, Wardrobe } from '../domain/profiles/wardrobe.js';

/** The points service's GetUserAvatar (public: it says only what the user may wear). */
export class PointsWardrobe implements Wardrobe {
  constructor(private readonly avatars: PromiseClient<AvatarServiceClient>) {}

  async fit(avatarId: string, userUuid: string): Promise<AvatarFit> {
    try {
      return (await this.avatars.getUserAvatar({ slug: avatarId, userUuid })).canWear ? 'wearable' : 'not-wearable';
    } catch (error) {
      if (isAppError(error) && error.status === 404) return 'unknown';
      throw error;
    }
  }
}
