import type { PaymentServiceClient } from '@spinroom/contracts/payment/v1/payment';
import type { PromiseClient, ServiceTokenSource } from '@spinroom/platform';
import type { Subscriptions } from '../domain/avatars.js';

/** The payment service's GetActiveSubscription, asked as the points service itself. */
export class PaymentServiceSubscriptions implements Subscriptions {
  constructor(
    private readonly payment: PromiseClient<PaymentServiceClient>,
    private readonly serviceToken: ServiceTokenSource,
  ) {}

  async level(userUuid: string): Promise<string> {
    return (await this.payment.getActiveSubscription({ userUuid }, { token: await this.serviceToken.token() })).level;
  }
}
