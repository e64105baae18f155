import { ConsumablePurchased } from '@spinroom/contracts/events/v1/points_events';
import type { EventHandler } from '@spinroom/platform';
import type { Chat } from '../domain/chat.js';
import { TOPICS } from '@spinroom/contracts/topics';

/** The points service's topic (services/points/src/events/points-events.ts). */
export const POINTS_EVENTS_TOPIC = TOPICS.pointsEvents.name;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `points.consumable-purchased`: the purchase shown in the room's chat. The
 * message is written once per purchase id (its dedupe key), outside the
 * consumer's transaction, so a redelivered event neither stores nor pushes it
 * twice. An event without valid uuids fails and, after the consumer's
 * retries, lands in `points-events.dlq`.
 */
export function pointsEventsHandler(chat: Chat): EventHandler {
  return async (event) => {
    if (event.eventType !== 'points.consumable-purchased') return;
    const purchased = ConsumablePurchased.decode(event.value);
    const { consumable } = purchased;
    if (!UUID.test(purchased.purchaseId) || !UUID.test(purchased.roomUuid) || !UUID.test(purchased.userUuid) || !consumable) {
      throw new Error(`points.consumable-purchased without a valid purchase (${JSON.stringify(purchased.purchaseId)})`);
    }
    await chat.showConsumablePurchase({
      purchaseId: purchased.purchaseId,
      roomUuid: purchased.roomUuid,
      userUuid: purchased.userUuid,
      consumable: { id: consumable.id, name: consumable.name, tokenCost: consumable.tokenCost, displayType: consumable.displayType },
      purchasedAt: purchased.purchasedAt ?? new Date(),
    });
  };
}
