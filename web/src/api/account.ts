// The account's REST calls (spec 000's user service): addresses, phone identity,
// music-provider links, password, sessions, deactivation, the caller's bot and
// the admin users list. Components call these through React Query.
import type { Role } from '@spinroom/platform/vocabulary';
import { tokenClaims } from '../session/session';
import { api, USER } from './client';
import type { AccessGrant } from './types';

export type EmailType = 'personal' | 'work' | 'payment' | 'spotify' | 'discord';
export interface AccountEmail {
  id: number;
  email: string;
  type: EmailType;
  status: 'PENDING_VERIFICATION' | 'VERIFIED' | 'DELETED' | 'CREATED_BY_ADMIN';
  createdAt: string;
  verifiedAt: string | null;
}

export interface UserIdentity {
  id: string;
  userUuid: string;
  channel: 'sms';
  phone: string;
  createdAt: string;
}

export interface AccountStanding {
  userUuid: string;
  roles: string[];
  capabilities: string[];
  banned: boolean;
  bannedUntil: string | null;
  deactivationRequestedAt: string | null;
  deactivatedAt: string | null;
}

export interface ProviderToken {
  accessToken: string;
  expiresIn: number;
  scope: string;
}

export const emails = {
  list: () => api.get<AccountEmail[]>(`${USER}/users/emails`),
  add: (email: string, type: EmailType) => api.post<AccountEmail>(`${USER}/users/emails`, { email, type }),
  verify: (code: string) => api.post<{ status: 'VERIFIED'; email: AccountEmail }>(`${USER}/users/emails/verify`, { code }),
  resend: (email: string) => api.post<object>(`${USER}/users/emails/verification-email`, { email }),
  remove: (id: number) => api.delete<object>(`${USER}/users/emails/${id}`),
};

export type PhoneChannel = 'sms' | 'whatsapp';
export const identities = {
  mine: () => api.get<UserIdentity[]>(`${USER}/api/v1/user-identities`),
  request: (phone: string, channel: PhoneChannel) =>
    api.post<{ phone: string; channel: PhoneChannel; status: string }>(`${USER}/api/v1/identity-verifications/request`, { phone, channel }),
  verify: (phone: string, code: string) => api.post<UserIdentity>(`${USER}/api/v1/identity-verifications/verify`, { phone, code }),
  remove: (id: string) => api.delete<object>(`${USER}/api/v1/user-identities/${id}`),
};

export type LinkableProvider = 'apple' | 'spotify' | 'youtube' | 'soundcloud';
export interface ProviderLink {
  provider: LinkableProvider;
  client: 'web' | 'mobile';
  updatedAt: string;
}
export const providerLinks = {
  /** The caller's links, without tokens (Spinroom's own path: spec 000 lists none). */
  list: () => api.get<{ links: ProviderLink[] }>(`${USER}/users/music-providers`).then((r) => r.links),
  exchangeCode: (provider: 'spotify' | 'youtube', body: { code: string; redirectUri: string; codeVerifier?: string }) =>
    api.post<ProviderToken>(`${USER}/${provider}/exchange-code`, body),
  saveSoundCloud: (refreshToken: string) => api.post<ProviderToken>(`${USER}/soundcloud/refresh-token`, { refreshToken }),
  unlink: (provider: LinkableProvider) =>
    api.delete<{ deleted: boolean }>(provider === 'apple' ? `${USER}/apple/user-token` : `${USER}/${provider}/refresh-token`),
};

export const passwords = {
  change: (body: { email: string; password: string; newPassword: string }) => api.post<AccessGrant>(`${USER}/users/change-password`, body),
  set: (password: string) => api.post<object>(`${USER}/users/set-password`, { password }),
};

export const account = {
  /** Sign out everywhere: every token of the caller issued until now ends. */
  logout: () => api.post<object>(`${USER}/auth/logout`),
  requestDeactivation: () => api.post<AccountStanding>(`${USER}/users/request-deactivate`),
};

export const bots = {
  create: (body: { botNickName: string; avatarId: string; color: string }) =>
    api.post<{ id: number; uuid: string }>(`${USER}/users/sign-up-bot`, body),
  token: () => api.get<{ accessToken: string; codeSyncNewUser: string }>(`${USER}/users/bot-token`),
};

export const BADGES = ['VERIFIED', 'PLATINUM', 'DOUBLE_PLATINUM', 'JQBX', 'STAFF'] as const;
export type Badge = (typeof BADGES)[number];
export const CAPABILITIES = ['uploadMusic', 'promoteRoom'] as const;
export type Capability = (typeof CAPABILITIES)[number];
/** Roles an admin may grant with add-role (staff roles below admin; the service checks the rank). */
export const GRANTABLE_ROLES: readonly Role[] = ['globalModerator', 'moderator', 'staff', 'promoter'];
/** ADMIN_ROLES of packages/platform (checked equal by web/test/account.test.ts): kept here so the bundle holds no generated contracts. */
export const ADMIN_ROLES: readonly Role[] = ['superUser', 'admin'];
export const isAdminRole = (role: string | undefined): boolean => role !== undefined && (ADMIN_ROLES as readonly string[]).includes(role);
/** Whether this token's role may use the admin screens (the role the services authorise by: the account's highest staff role). */
export const isAdminToken = (token: string | null): boolean => token !== null && isAdminRole(tokenClaims(token).role);

export interface AdminUser {
  id: number;
  uuid: string;
  kind: string;
  email: string | null;
  nickname: string;
  roles: string[];
  capabilities: string[];
  badges: string[];
  createdAt: string;
}

export interface AdminUsersPage {
  data: AdminUser[];
  count: number;
  total: number;
  page: number;
  pageCount: number;
}

export const ADMIN_PAGE_SIZE = 20;

/** The @nestjsx/crud query for one page of users, newest first, matching `search` in email or nickname. */
export function adminUsersQuery(search: string, page: number): Record<string, string> {
  const q = search.trim();
  return {
    fields: 'id,uuid,kind,email,nickname,roles,capabilities,badges,createdAt',
    sort: 'id,DESC',
    limit: String(ADMIN_PAGE_SIZE),
    page: String(page),
    ...(q ? { s: JSON.stringify({ $or: [{ email: { $contL: q } }, { nickname: { $contL: q } }] }) } : {}),
  };
}

export const admin = {
  users: (search: string, page: number) => api.get<AdminUsersPage>(`${USER}/admin/users`, { query: adminUsersQuery(search, page) }),
  ban: (userUuid: string) => api.post<AccountStanding>(`${USER}/users/ban`, { userUuid }),
  temporaryBan: (userUuid: string, expirationTime: string) =>
    api.post<AccountStanding>(`${USER}/users/temporary-ban`, { userUuid, expirationTime }),
  unban: (userUuid: string) => api.post<AccountStanding>(`${USER}/users/unban`, { userUuid }),
  changeBadges: (userUuid: string, badges: Badge[]) => api.post<object>(`${USER}/users/change-badges-admin`, { userUuid, badges }),
  addRole: (userUuid: string, role: Role) => api.post<AccountStanding>(`${USER}/users/add-role`, { userUuid, role }),
  setCapability: (userUuid: string, capability: Capability, on: boolean) =>
    on
      ? api.put<AccountStanding>(`${USER}/users/${userUuid}/capabilities/${capability}`)
      : api.delete<AccountStanding>(`${USER}/users/${userUuid}/capabilities/${capability}`),
};
