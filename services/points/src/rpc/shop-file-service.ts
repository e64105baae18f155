import type {
  ShopFileServiceServer,
  ShopFile as ShopFileMessage,
  UploadConsumableFileRequest,
} from '@spinroom/contracts/points/v1/shop_files';
import { readBufferedUpload, type CallContext, type createClientStreamingFactory, type createUnaryFactory } from '@spinroom/platform';
import { SHOP_FILE_MAX_BYTES, shopFileUrl, type ShopFile, type ShopFiles, type ShopFileUpload } from '../domain/shop-files.js';
import type { Actor } from '../domain/tokens.js';
import { bundleMessage } from './shop-service.js';

const actorOf = (context: Pick<CallContext, 'caller'>): Actor => ({
  userUuid: context.caller.userUuid,
  role: context.caller.role,
  kind: context.caller.kind,
});

const fileMessage = (file: ShopFile): ShopFileMessage => ({
  id: file.id,
  purpose: file.purpose,
  width: file.width,
  height: file.height,
  contentType: file.contentType,
  sizeBytes: file.sizeBytes,
  url: shopFileUrl(file.id),
  createdAt: file.createdAt,
});

/** Both uploads send the same parts (their messages differ by name only, as buf's lint wants). */
async function readShopFile(messages: AsyncIterable<UploadConsumableFileRequest>): Promise<ShopFileUpload> {
  // One byte past the limit is enough to refuse it (413), however much more was sent.
  const { fields, contentType, content } = await readBufferedUpload(messages, SHOP_FILE_MAX_BYTES);
  return { consumableId: fields.consumableId, tokenBundleId: fields.tokenBundleId, contentType, content };
}

/** gRPC handlers of spinroom.points.v1.ShopFileService: who calls, then the domain decides. */
export function shopFileServiceHandlers(deps: {
  files: ShopFiles;
  unary: ReturnType<typeof createUnaryFactory>;
  clientStream: ReturnType<typeof createClientStreamingFactory>;
}): ShopFileServiceServer {
  const { files, unary, clientStream } = deps;
  return {
    uploadConsumableFile: clientStream(async (messages, context) => ({
      file: fileMessage(await files.uploadConsumableFile(actorOf(context), await readShopFile(messages))),
    })),
    getShopFile: unary.public(async (request) => {
      const { file, content } = await files.get(request.fileId);
      return { file: fileMessage(file), content };
    }),
    setTokenBundleThumbnail: clientStream(async (messages, context) => {
      const { bundle, file } = await files.setTokenBundleThumbnail(actorOf(context), await readShopFile(messages));
      return { bundle: bundleMessage(bundle), file: fileMessage(file) };
    }),
  };
}
