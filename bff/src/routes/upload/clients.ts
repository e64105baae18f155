import type { UploadServiceClient } from '@spinroom/contracts/upload/v1/upload_service';
import type { PromiseClient } from '@spinroom/platform/core';

export type UploadClient = PromiseClient<UploadServiceClient>;
