// The admin panel's REST calls (issue 18): rooms (the room service's admin
// paths), moderation actions (the audit service), DJs and notifications (the
// social service), and which sections a token's role may open: each section
// only for the roles its service allows (the services refuse everyone else).
import { tokenClaims } from '../session/session';
import { ADMIN_ROLES } from './account';
import { api, ROOM } from './client';
import { type CrudPage, PANEL_PAGE_SIZE } from './communities';
import type { Room } from './types';

const AUDIT = '/api/audit-service';
const SOCIAL = '/api/social-service';

/** GLOBAL_ROLES of packages/platform (checked equal by web/test/adminPanel.test.ts): the room and audit services' staff. */
export const GLOBAL_ROLES: readonly string[] = ['superUser', 'admin', 'globalModerator', 'staff'];

export const PANEL_SECTIONS = ['rooms', 'communities', 'events', 'moderation', 'djs', 'users', 'notifications'] as const;
export type PanelSection = (typeof PANEL_SECTIONS)[number];

/**
 * Who may open each section, as the services decide: rooms, communities, events
 * and the moderation log are for the global roles (the room service's admin
 * paths, the audit service's staff); DJs, users and notifications for admins
 * (the social and user services' admin paths).
 */
const SECTION_ROLES: Record<PanelSection, readonly string[]> = {
  rooms: GLOBAL_ROLES,
  communities: GLOBAL_ROLES,
  events: GLOBAL_ROLES,
  moderation: GLOBAL_ROLES,
  djs: ADMIN_ROLES,
  users: ADMIN_ROLES,
  notifications: ADMIN_ROLES,
};

/** The sections a token role may open, in the panel's order (none: no panel in the menu). */
export function panelSections(role: string | undefined): PanelSection[] {
  return role === undefined ? [] : PANEL_SECTIONS.filter((s) => SECTION_ROLES[s].includes(role));
}

export const panelSectionsOf = (token: string | null): PanelSection[] => (token ? panelSections(tokenClaims(token).role) : []);

export const isPanelSection = (value: string | undefined): value is PanelSection =>
  value !== undefined && (PANEL_SECTIONS as readonly string[]).includes(value);

export interface RoomEdit {
  name?: string;
  description?: string;
  promoted?: boolean;
}

export const adminRooms = {
  list: (page: number) =>
    api.get<CrudPage<Room>>(`${ROOM}/admin/rooms`, { query: { limit: PANEL_PAGE_SIZE, offset: (page - 1) * PANEL_PAGE_SIZE } }),
  update: (id: number, body: RoomEdit) => api.patch<Room>(`${ROOM}/rooms/admin/${id}`, body),
  remove: (slug: string) => api.delete<object>(`${ROOM}/rooms/${encodeURIComponent(slug)}/infrastructure`),
};

export interface ModerationAction {
  id: string;
  actionType: string;
  previousRole: string | null;
  role: string | null;
  roomUuid: string | null;
  actorUuid: string | null;
  targetUuid: string | null;
  actorTokenRole: string | null;
  expirationTime: string | null;
  createdAt: string;
  source: 'kafka' | 'api';
}

export interface ModerationFilter {
  /** An action type (`banUser`, `grantRole`...), or '' for any. */
  type: string;
  /** A user's uuid: the actions they took or were the target of; '' for anyone. */
  user: string;
  /** Days (yyyy-mm-dd, the viewer's calendar): from the start of `from`, to the end of `to`; '' for no bound. */
  from: string;
  to: string;
}

/** The local day's bounds as instants (a date input answers the viewer's calendar day). */
const dayStart = (day: string) => new Date(`${day}T00:00:00`).toISOString();
const dayEnd = (day: string) => new Date(new Date(`${day}T00:00:00`).getTime() + 86_400_000 - 1).toISOString();

/** The audit service's @nestjsx/crud query for a page of the moderation log, newest first. */
export function moderationQuery(filter: ModerationFilter, page: number): Record<string, string> {
  const and: object[] = [];
  if (filter.type) and.push({ actionType: { $eq: filter.type } });
  const user = filter.user.trim();
  if (user) and.push({ $or: [{ actorUuid: { $eq: user } }, { targetUuid: { $eq: user } }] });
  if (filter.from) and.push({ createdAt: { $gte: dayStart(filter.from) } });
  if (filter.to) and.push({ createdAt: { $lte: dayEnd(filter.to) } });
  return {
    sort: 'createdAt,DESC',
    limit: String(PANEL_PAGE_SIZE),
    page: String(page),
    ...(and.length ? { s: JSON.stringify(and.length === 1 ? and[0] : { $and: and }) } : {}),
  };
}

/** The events the audit service records of users, less the plays: the moderation action types. */
const PLAY_EVENTS = new Set(['totalPlayed', 'played15Sec', 'played30Sec', 'pageView', 'appEvent']);

export const moderation = {
  list: (filter: ModerationFilter, page: number) =>
    api.get<CrudPage<ModerationAction>>(`${AUDIT}/moderation-actions`, { query: moderationQuery(filter, page) }),
  types: () => api.get<string[]>(`${AUDIT}/info-admin/user-events-names`).then((names) => names.filter((n) => !PLAY_EVENTS.has(n))),
};

export interface DjSummary {
  djUuid: string;
  fans: number;
  following: number;
  lastFollowedAt: string | null;
}

export interface DjFan {
  id: string;
  fanUuid: string;
  djUuid: string;
  createdAt: string;
}

export interface SendResult {
  queued: number;
  fanoutId: string | null;
  accepted: boolean;
}

export const djs = {
  list: (page: number) =>
    api.get<{ data: DjSummary[]; total: number }>(`${SOCIAL}/admin/djs`, {
      query: { skip: (page - 1) * PANEL_PAGE_SIZE, take: PANEL_PAGE_SIZE },
    }),
  withFans: (djUuid: string) =>
    api.get<{ dj: DjSummary; fans: { data: DjFan[]; total: number } }>(`${SOCIAL}/dj-fans/admin/${djUuid}`, {
      query: { skip: 0, take: 50 },
    }),
  /** What the DJ's songs were heard (the audit service's play-tracking totals; staff). */
  plays: (djUuid: string) => api.get<PlayTotals>('/api/audit-service/info-admin/play-totals', { query: { scope: 'dj', key: djUuid } }),
};

export interface PlayTotals {
  totalPlayed: number;
  playedSeconds: number;
  fifteenSecondPlays: number;
  thirtySecondPlays: number;
}

export const notify = {
  /** Phones and browsers of the people in a room now (admins). */
  roomUsers: (roomUuid: string, message: string, title?: string) =>
    api.post<SendResult>(`${SOCIAL}/notifications/custom-message-from-room`, { roomUuid, message, ...(title ? { title } : {}) }),
  /** A DJ's fans (admins: any DJ). */
  djFans: (djUuid: string, title: string, body: string) => api.post<SendResult>(`${SOCIAL}/notifications/dj-fans`, { djUuid, title, body }),
};
