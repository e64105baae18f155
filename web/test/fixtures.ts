import type { RoomState } from '../src/api/types';

export function emptyState(overrides: Partial<RoomState> = {}): RoomState {
  return {
    allUserData: {},
    allUsers: [],
    audienceUsers: [],
    floorUsers: [],
    djs: [],
    visibleDjs: [],
    nowPlaying: null,
    settings: {
      uuid: 'r1',
      slug: 'room',
      name: 'Room',
      design: 'CLUB',
      numberOfDjs: 2,
      roomRoles: [],
      pinnedMessages: [],
    } as unknown as RoomState['settings'],
    vibeMeter: 0.5,
    voteCounts: { likes: 0, dislikes: 0, stars: 0 },
    ...overrides,
  };
}
