import type { SocialPort } from '../domain/ports.js';

/** ListFriends' longest page (the social service's MAX_TAKE). */
const FRIENDS_PAGE = 100;

/**
 * The social service's AreBlocked, ListBlocks and ListFriends as the chat
 * service uses them; typed structurally so the generated SocialServiceClient fits.
 */
export interface SocialClient {
  areBlocked(
    request: { userUuid: string; otherUserUuid: string },
    settings?: { token?: string; deadlineMs?: number },
  ): Promise<{ blocked: boolean }>;
  listBlocks(
    request: { userUuid: string },
    settings?: { token?: string; deadlineMs?: number },
  ): Promise<{ blockedUuids: string[]; blockedByUuids: string[] }>;
  listFriends(
    request: { userUuid: string; page?: { skip: number; take: number } },
    settings?: { token?: string; deadlineMs?: number },
  ): Promise<{ friends: Array<{ userUuid: string; friendUuid: string }>; total: number }>;
}

/**
 * Blocks and friendships from the social service, asked as the chat service
 * itself (a `service` token), never cached: a block takes effect on the next
 * message and the next poll.
 */
export class SocialServiceRelations implements SocialPort {
  constructor(
    private readonly client: SocialClient,
    private readonly serviceToken: () => Promise<string>,
  ) {}

  async blockedBetween(userUuid: string, otherUuid: string): Promise<boolean> {
    const answer = await this.client.areBlocked({ userUuid, otherUserUuid: otherUuid }, { token: await this.serviceToken() });
    return answer.blocked;
  }

  async blockedUsers(userUuid: string): Promise<string[]> {
    return (await this.client.listBlocks({ userUuid }, { token: await this.serviceToken() })).blockedUuids;
  }

  async friends(userUuid: string): Promise<string[]> {
    const token = await this.serviceToken();
    const friends: string[] = [];
    for (let skip = 0; ; skip += FRIENDS_PAGE) {
      const page = await this.client.listFriends({ userUuid, page: { skip, take: FRIENDS_PAGE } }, { token });
      for (const f of page.friends) friends.push(f.userUuid === userUuid ? f.friendUuid : f.userUuid);
      if (page.friends.length < FRIENDS_PAGE || skip + FRIENDS_PAGE >= page.total) return friends;
    }
  }
}
