import { AuditServiceClient } from '@spinroom/contracts/audit/v1/audit';
import { createGrpcClient, type PromiseClient } from '@spinroom/platform/core';

export type AuditClient = PromiseClient<AuditServiceClient>;

/** The audit service's one gRPC service, on its address. */
export function createAuditClient(address: string): AuditClient {
  return createGrpcClient(AuditServiceClient, address);
}
