import type { ServiceDatabase } from '@spinroom/platform';
import {
  ProcessedAppleNotificationEntity,
  ProcessedStripeEventEntity,
  ProductEntity,
  StripeCustomerEntity,
  StripePurchaseEntity,
  StripeRefundEntity,
  SubscriptionEntity,
} from './entities.js';
import { migrations } from './migrations/index.js';

/** The payment service's tables; the service kit opens and migrates them. */
export const paymentDatabase: ServiceDatabase = {
  entities: [
    ProductEntity,
    ProcessedStripeEventEntity,
    StripeCustomerEntity,
    SubscriptionEntity,
    ProcessedAppleNotificationEntity,
    StripePurchaseEntity,
    StripeRefundEntity,
  ],
  migrations,
};
