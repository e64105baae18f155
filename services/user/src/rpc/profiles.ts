import {
  type AdminUser,
  ImageKind,
  type ProfileImage as ProfileImageMessage,
  type ProfilesServiceServer,
  type UploadImageRequest,
} from '@spinroom/contracts/user/v1/profiles';
import { readBufferedUpload, type createClientStreamingFactory, type createUnaryFactory } from '@spinroom/platform';
import type { AdminUserRow, AdminUsers } from '../domain/profiles/admin-users.js';
import type { ProfileImage, ProfileImages, UploadedImage } from '../domain/profiles/images.js';
import type { ProfilePaths } from '../domain/profiles/profile-paths.js';
import { toProfileMessage, toProfilePatch } from './user-service.js';

const IMAGE_KIND: Record<ProfileImage['kind'], ImageKind> = {
  profilePicture: ImageKind.IMAGE_KIND_PROFILE_PICTURE,
  coverPicture: ImageKind.IMAGE_KIND_COVER_PICTURE,
};

function toImageMessage(image: ProfileImage): ProfileImageMessage {
  return { ...image, kind: IMAGE_KIND[image.kind] };
}

function toAdminUser(row: AdminUserRow): AdminUser {
  const { roles, capabilities, badges, fields, ...rest } = row;
  // proto3 optional: a null column is left unset (ts-proto would write null as the text "null").
  const values = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null && value !== undefined));
  return {
    ...(values as Partial<AdminUser>),
    roles: (roles as string[] | undefined) ?? [],
    capabilities: (capabilities as string[] | undefined) ?? [],
    badges: (badges as string[] | undefined) ?? [],
    fields,
  };
}

/**
 * Reads an image upload's messages (fields, file, chunks, end) into memory:
 * pictures are small, and the size limit is enforced as chunks arrive.
 */
async function readImageUpload(messages: AsyncIterable<UploadImageRequest>, maxBytes: number): Promise<UploadedImage> {
  const { fields, ...file } = await readBufferedUpload(messages, maxBytes);
  return { kind: fields.kind, ...file };
}

/** gRPC handlers of spinroom.user.v1.ProfilesService: thin, the rules are in domain/profiles. */
export function profilesHandlers(deps: {
  profiles: ProfilePaths;
  images: ProfileImages;
  admin: AdminUsers;
  imageMaxBytes: number;
  unary: ReturnType<typeof createUnaryFactory>;
  clientStream: ReturnType<typeof createClientStreamingFactory>;
}): ProfilesServiceServer {
  const { profiles, images, admin, unary, clientStream } = deps;
  const page = (users: Awaited<ReturnType<ProfilePaths['listForSeo']>>) => ({
    profiles: users.users.map(toProfileMessage),
    total: users.total,
  });
  return {
    getServiceProfile: unary(async (request, { caller }) => ({
      profile: toProfileMessage(await profiles.serviceProfile(caller, request.userUuid)),
    })),
    getUserData: unary(async (_request, { caller }) => ({ userData: await profiles.userData(caller) })),
    updateUserData: unary(async (request, { caller }) => ({ userData: await profiles.replaceUserData(caller, request.userData) })),
    getUser: unary(async (request) => ({ profile: toProfileMessage(await profiles.profile(request.userUuid)) })),
    getCapabilities: unary(async (_request, { caller }) => ({ capabilities: await profiles.capabilities(caller) })),
    updateSocials: unary(async (request, { caller }) => ({
      profile: toProfileMessage(await profiles.updateSocials(caller, request)),
    })),
    updateProfileAsAdmin: unary(async (request, { caller }) => ({
      profile: toProfileMessage(
        await profiles.updateAsAdmin(caller, request.userUuid, toProfilePatch(request.changes ?? { clearSong: false })),
      ),
    })),
    changeBadgesAsAdmin: unary(async (request, { caller }) => ({
      profile: toProfileMessage(await profiles.changeBadgesAsAdmin(caller, request.userUuid, request.badges)),
    })),
    addBadgesAsService: unary(async (request, { caller }) => ({
      profile: toProfileMessage(await profiles.addBadgesAsService(caller, request.userUuid, request.badges)),
    })),
    removeBadgesAsService: unary(async (request, { caller }) => ({
      profile: toProfileMessage(await profiles.removeBadgesAsService(caller, request.userUuid, request.badges)),
    })),
    listAllProfiles: unary(async (request, { caller }) => page(await profiles.listForSeo(caller, 'id', request.take, request.skip))),
    listUpdatedProfiles: unary(async (request, { caller }) =>
      page(await profiles.listForSeo(caller, 'updatedAt', request.take, request.skip)),
    ),
    uploadImage: clientStream(async (messages, { caller }) => ({
      image: toImageMessage(await images.upload(caller, await readImageUpload(messages, deps.imageMaxBytes))),
    })),
    getImage: unary.public(async (request) => {
      const { image, content } = await images.get(request.imageId);
      return { image: toImageMessage(image), content };
    }),
    deleteImage: unary(async (request, { caller }) => {
      await images.delete(caller, request.imageId);
      return {};
    }),
    listUsersAsAdmin: unary(async (request, { caller }) => {
      const { data, ...page } = await admin.list(caller, request.query);
      return { data: data.map(toAdminUser), ...page };
    }),
    getUserAsAdmin: unary(async (request, { caller }) => ({
      user: toAdminUser(await admin.get(caller, request.userUuid, request.query)),
    })),
    getServiceStatus: unary(async (_request, { caller }) => admin.status(caller)),
  };
}
