import { AvatarServiceClient } from '@spinroom/contracts/points/v1/avatars';
import { RankingServiceClient, SeasonServiceClient } from '@spinroom/contracts/points/v1/seasons';
import { ConsumableServiceClient, TokenBundleServiceClient } from '@spinroom/contracts/points/v1/shop';
import { ShopFileServiceClient } from '@spinroom/contracts/points/v1/shop_files';
import { TokenServiceClient } from '@spinroom/contracts/points/v1/tokens';
import { createGrpcClient, type PromiseClient } from '@spinroom/platform/core';

export type TokenClient = PromiseClient<TokenServiceClient>;
export type ConsumableClient = PromiseClient<ConsumableServiceClient>;
export type TokenBundleClient = PromiseClient<TokenBundleServiceClient>;
export type SeasonClient = PromiseClient<SeasonServiceClient>;
export type RankingClient = PromiseClient<RankingServiceClient>;
export type AvatarClient = PromiseClient<AvatarServiceClient>;
export type ShopFileClient = PromiseClient<ShopFileServiceClient>;

/**
 * One client per gRPC service the points service serves, all on its one
 * address. A new points-service area (seasons, avatars: their own proto
 * service) adds one line here.
 */
export function createPointsClients(address: string) {
  return {
    tokens: createGrpcClient(TokenServiceClient, address) as TokenClient,
    consumables: createGrpcClient(ConsumableServiceClient, address) as ConsumableClient,
    bundles: createGrpcClient(TokenBundleServiceClient, address) as TokenBundleClient,
    files: createGrpcClient(ShopFileServiceClient, address) as ShopFileClient,
    seasons: createGrpcClient(SeasonServiceClient, address) as SeasonClient,
    rankings: createGrpcClient(RankingServiceClient, address) as RankingClient,
    avatars: createGrpcClient(AvatarServiceClient, address) as AvatarClient,
  };
}

export type PointsClients = ReturnType<typeof createPointsClients>;

export function closePointsClients(clients: PointsClients): void {
  for (const client of Object.values(clients)) client.close();
}
