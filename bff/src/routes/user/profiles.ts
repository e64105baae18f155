import type { AdminUser, ProfileImage, ProfilesServiceClient } from '@spinroom/contracts/user/v1/profiles';
import type { PromiseClient } from '@spinroom/platform/core';
import { z } from 'zod';
import { streamMultipart } from '../../http/multipart.js';
import { pageOffset, pageSize } from '../../http/paging.js';
import { RawReply, route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import { toProfileJson } from './profile-view.js';
import { ProfileUpdateSchema, UserProfileSchema } from './schemas.js';

export type ProfilesClient = PromiseClient<ProfilesServiceClient>;

const BASE = '/api/user-service';
const tags = ['users'];
/** The BFF's bound on a picture while streaming; the user service applies its own (USER_IMAGE_MAX_BYTES). */
const IMAGE_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
const IMAGE_KIND_NAMES = { 1: 'profilePicture', 2: 'coverPicture' } as const;

const BadgesSchema = z.object({
  userUuid: z.uuid(),
  badges: z.array(z.enum(['VERIFIED', 'PLATINUM', 'DOUBLE_PLATINUM', 'JQBX', 'STAFF'])).max(5),
});
const UserDataSchema = z.record(z.string(), z.unknown()).openapi('UserData');
const ProfilesPageSchema = z.object({ profiles: z.array(UserProfileSchema), total: z.number().int() }).openapi('ProfilesPage');
const SeoPageQuery = z.object({ take: pageSize(100, 1000), skip: pageOffset() });
const nullableSocial = z.string().max(255).nullable().optional();
const SocialsSchema = z
  .object({
    discord: nullableSocial,
    facebook: nullableSocial,
    instagram: nullableSocial,
    twitter: nullableSocial,
    snapchat: nullableSocial,
    tiktok: nullableSocial,
  })
  .openapi('UserSocials');
const ImageSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(['profilePicture', 'coverPicture']),
    url: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    contentType: z.string(),
    createdAt: z.string(),
  })
  .openapi('ProfileImage');
const ImageFormSchema = z
  .object({
    kind: z.enum(['profilePicture', 'coverPicture']),
    file: z.string().openapi({ type: 'string', format: 'binary', description: 'A JPEG, PNG, WebP or GIF image' }),
  })
  .openapi('ProfileImageForm');
/** A user as admins list it: the columns the query's `fields` chose (all when it names none). */
const AdminUserSchema = z
  .object({
    id: z.number().int(),
    uuid: z.uuid(),
    kind: z.string(),
    email: z.string().nullable(),
    nickname: z.string(),
    color: z.string(),
    avatarId: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    roles: z.array(z.string()),
    capabilities: z.array(z.string()),
    badges: z.array(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .partial()
  .openapi('AdminUser');
const crudParam = (description: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .openapi({ description });
/** The @nestjsx/crud query (ARCHITECTURE.md), documented here and parsed by the user service from the raw query string. */
const CrudQuery = z.object({
  fields: crudParam('Columns to answer, comma-separated (id and uuid always)'),
  s: crudParam('A search condition as JSON, e.g. {"nickname":{"$cont":"dj"}}; takes precedence over filter and or'),
  filter: crudParam('field||$operator||value, repeated (ANDed)'),
  or: crudParam('field||$operator||value, repeated (ORed with the filters)'),
  sort: crudParam('field,ASC|DESC, repeated'),
  join: crudParam('No relations can be joined here'),
  limit: crudParam('Page size (25 by default, 100 at most)'),
  offset: crudParam('Rows to skip'),
  page: crudParam('Page number from 1 (wins over offset)'),
  cache: crudParam('Accepted; answers are never cached'),
});

function rawQuery(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

function toImageJson(image: ProfileImage | undefined) {
  const { id, kind, width, height, contentType, createdAt } = present(image);
  return {
    id,
    kind: IMAGE_KIND_NAMES[kind as 1 | 2],
    url: `${BASE}/users/images/${id}`,
    width,
    height,
    contentType,
    createdAt: (createdAt ?? new Date(0)).toISOString(),
  };
}

/** Only the selected columns, timestamps as ISO text. */
function toAdminUserJson(user: AdminUser | undefined): z.input<typeof AdminUserSchema> {
  const { fields, ...values } = present(user);
  const json: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field as keyof typeof values];
    json[field] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  return json;
}

/** Profile paths beyond the own profile, profile images, and the admin users list (spec 000 section 7). */
export function profilesRoutes(deps: RouteDeps, profiles: ProfilesClient): void {
  route(deps, {
    method: 'get',
    path: `${BASE}/profile/{id}/service`,
    summary: "A user's profile, for other services (token role `service`)",
    tags,
    params: z.object({ id: z.uuid() }),
    response: UserProfileSchema,
    errors: [403, 404],
    handler: async ({ params }) => toProfileJson(present((await profiles.getServiceProfile({ userUuid: params.id })).profile)),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/users/profile/user-data`,
    summary: "The caller's user data: the client's own settings, a JSON object ({} until saved)",
    tags,
    response: UserDataSchema,
    errors: [404],
    handler: async () => (await profiles.getUserData({})).userData ?? {},
  });

  route(deps, {
    method: 'put',
    path: `${BASE}/users/profile/user-data`,
    summary: "Replace the caller's user data (a JSON object, 16 KB at most; users and bots)",
    tags,
    body: UserDataSchema,
    response: UserDataSchema,
    errors: [403, 404],
    handler: async ({ body }) => (await profiles.updateUserData({ userData: body })).userData ?? {},
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/users/user/{id}`,
    summary: "A user's profile",
    tags,
    params: z.object({ id: z.uuid() }),
    response: UserProfileSchema,
    errors: [404],
    handler: async ({ params }) => toProfileJson(present((await profiles.getUser({ userUuid: params.id })).profile)),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/users/capabilities`,
    summary: "The caller's capabilities (uploadMusic, promoteRoom, ...)",
    tags,
    response: z.object({ capabilities: z.array(z.string()) }),
    errors: [404],
    handler: async () => ({ capabilities: (await profiles.getCapabilities({})).capabilities }),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/users/user-socials`,
    summary: 'Set the caller\'s social links (null or "" clears one; users and bots)',
    tags,
    body: SocialsSchema,
    response: UserProfileSchema,
    errors: [403, 404],
    handler: async ({ body }) => {
      const socials = Object.fromEntries(Object.entries(body).map(([field, value]) => [field, value ?? '']));
      return toProfileJson(present((await profiles.updateSocials(socials)).profile));
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/users/profile-admin`,
    summary: "Edit a user's profile (admins)",
    tags,
    body: ProfileUpdateSchema.extend({ userUuid: z.uuid() }).openapi('ProfileAdminUpdate'),
    response: UserProfileSchema,
    errors: [403, 404],
    handler: async ({ body }) => {
      const { userUuid, song, ...rest } = body;
      // null clears a text field; the user service takes "" for that (as POST /users/profile does).
      const fields = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v === null ? '' : v]));
      const changes = { ...fields, song: song ?? undefined, clearSong: song === null };
      return toProfileJson(present((await profiles.updateProfileAsAdmin({ userUuid, changes })).profile));
    },
  });

  const badgeRoute = (path: string, summary: string, call: (body: z.infer<typeof BadgesSchema>) => Promise<{ profile?: unknown }>) =>
    route(deps, {
      method: 'post',
      path: `${BASE}/users/${path}`,
      summary,
      tags,
      body: BadgesSchema,
      response: UserProfileSchema,
      errors: [403, 404],
      handler: async ({ body }) => toProfileJson(present((await call(body)).profile) as never),
    });
  badgeRoute('change-badges-admin', "Replace a user's badges (admins)", (body) => profiles.changeBadgesAsAdmin(body));
  badgeRoute('add-badges-service', 'Add badges to a user (services)', (body) => profiles.addBadgesAsService(body));
  badgeRoute('remove-badges-service', 'Remove badges from a user (services)', (body) => profiles.removeBadgesAsService(body));

  route(deps, {
    method: 'get',
    path: `${BASE}/users/service/all-user-profiles`,
    summary: 'Profiles of signed-up users and bots by id, `take` from `skip` (services; SEO)',
    tags,
    query: SeoPageQuery,
    response: ProfilesPageSchema,
    errors: [403],
    handler: async ({ query }) => {
      const { profiles: list, total } = await profiles.listAllProfiles(query);
      return { profiles: list.map(toProfileJson), total };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/users/service/{id}/user-profile`,
    summary: "A user's profile (services; SEO)",
    tags,
    params: z.object({ id: z.uuid() }),
    response: UserProfileSchema,
    errors: [403, 404],
    handler: async ({ params }) => toProfileJson(present((await profiles.getServiceProfile({ userUuid: params.id })).profile)),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/users/service/update-user-profiles`,
    summary: 'Profiles most recently changed first, `take` from `skip` (services; SEO refresh)',
    tags,
    query: SeoPageQuery,
    response: ProfilesPageSchema,
    errors: [403],
    handler: async ({ query }) => {
      const { profiles: list, total } = await profiles.listUpdatedProfiles(query);
      return { profiles: list.map(toProfileJson), total };
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/users/images`,
    summary:
      "Upload a profile or cover picture (multipart/form-data: kind, file; JPEG, PNG, WebP or GIF, 10 MB at most), stored resized as WebP; a cover picture becomes the profile's coverPicture",
    tags,
    status: 201,
    rawBody: { contentType: 'multipart/form-data', schema: ImageFormSchema },
    response: ImageSchema,
    errors: [403, 404, 413, 415],
    handler: async ({ req }) => {
      const { image } = await streamMultipart(req, () => profiles.uploadImage(), {
        maxBytes: IMAGE_UPLOAD_MAX_BYTES,
        fields: ['kind'],
        noun: 'image',
        message: (part) => ({ part }),
      });
      return toImageJson(image);
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/users/images/{id}`,
    // Public: pages show pictures with <img>, which sends no bearer token; ids are random uuids.
    summary: 'A profile or cover picture (WebP)',
    tags,
    auth: 'public',
    params: z.object({ id: z.uuid() }),
    produces: 'image/webp',
    response: z.string().openapi({ type: 'string', format: 'binary' }),
    errors: [404],
    handler: async ({ params }) => {
      const { image, content } = await profiles.getImage({ imageId: params.id });
      return new RawReply(content, {
        'content-type': present(image).contentType,
        // An image never changes under its id.
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
      });
    },
  });

  route(deps, {
    method: 'delete',
    path: `${BASE}/users/images/{id}`,
    summary: 'Delete a picture (its owner or an admin; 403 "Unauthorized to delete")',
    tags,
    params: z.object({ id: z.uuid() }),
    response: z.object({}),
    errors: [403, 404],
    handler: async ({ params }) => {
      await profiles.deleteImage({ imageId: params.id });
      return {};
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/admin/users`,
    summary: 'Users, in the @nestjsx/crud query syntax (admins); unknown fields are a 400',
    tags: ['admin'],
    query: CrudQuery,
    response: z
      .object({
        data: z.array(AdminUserSchema),
        count: z.number().int(),
        total: z.number().int(),
        page: z.number().int(),
        pageCount: z.number().int(),
      })
      .openapi('AdminUsersPage'),
    errors: [403],
    handler: async ({ req }) => {
      const { data, count, total, page, pageCount } = await profiles.listUsersAsAdmin({ query: rawQuery(req.originalUrl) });
      return { data: data.map(toAdminUserJson), count, total, page, pageCount };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/admin/users/{id}`,
    summary: 'One user (admins); `fields` chooses the columns',
    tags: ['admin'],
    params: z.object({ id: z.uuid() }),
    query: CrudQuery,
    response: AdminUserSchema,
    errors: [403, 404],
    handler: async ({ params, req }) =>
      toAdminUserJson((await profiles.getUserAsAdmin({ userUuid: params.id, query: rawQuery(req.originalUrl) })).user),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/info-admin/user-service-status`,
    summary: "The user service's version, uptime and database state (admins)",
    tags: ['admin'],
    response: z
      .object({ version: z.string(), uptimeSeconds: z.number().int(), databaseOk: z.boolean(), startedAt: z.string() })
      .openapi('UserServiceStatus'),
    errors: [403],
    handler: async () => {
      const status = await profiles.getServiceStatus({});
      return { ...status, startedAt: (status.startedAt ?? new Date(0)).toISOString() };
    },
  });
}
