import { ConsumablePurchased } from '@spinroom/contracts/events/v1/points_events';
import { newEventMetadata, type OutboxEntry } from '@spinroom/platform';
import type { Consumable, ConsumablePurchase } from '../domain/consumables.js';
import { TOPICS } from '@spinroom/contracts/topics';

/** What the points service announces (proto/spinroom/events/v1/points_events.proto), through its outbox. */
export const POINTS_EVENTS_TOPIC = TOPICS.pointsEvents.name;
export const CONSUMABLE_PURCHASED = 'points.consumable-purchased';

/** `points.consumable-purchased`, keyed by the room's uuid: staged in the purchase's own transaction. */
export function consumablePurchased(
  purchase: ConsumablePurchase,
  consumable: Pick<Consumable, 'id' | 'name' | 'tokenCost' | 'displayType'>,
): OutboxEntry {
  const metadata = newEventMetadata(CONSUMABLE_PURCHASED);
  const payload = ConsumablePurchased.encode({
    metadata,
    purchaseId: purchase.id,
    roomUuid: purchase.roomUuid,
    userUuid: purchase.userUuid,
    accountId: purchase.accountId,
    consumable: { id: consumable.id, name: consumable.name, tokenCost: consumable.tokenCost, displayType: consumable.displayType },
    purchasedAt: purchase.createdAt,
  }).finish();
  return { topic: POINTS_EVENTS_TOPIC, key: purchase.roomUuid, metadata, payload };
}
