// The shop's Subscription section's strings (en and es), in the shop's chunk so
// the first page load does not carry them (web/README.md's budget).
import { useLocale } from '../i18n/i18n';

const en = {
  subscriptionTitle: 'Subscription',
  subscriptionIntro:
    "A subscription gives you its level while it lasts: the subscribers' avatars among others. Paid by card through Stripe, renewed by itself until you cancel it.",
  subscriptionPlans: 'Subscription plans',
  noSubscriptionPlans: 'No subscription plans on sale yet.',
  subscriptionPrice: {
    day: '{price} a day',
    week: '{price} a week',
    month: '{price} a month',
    year: '{price} a year',
  },
  subscriptionLevel: 'Level: {level}',
  subscriptionPlanLabel: 'Plan',
  subscriptionLevelLabel: 'Level',
  subscribeTo: 'Subscribe to {plan}',
  yourPlan: 'Your plan',
  yourSubscription: 'Your subscription',
  noSubscription: 'You have no subscription.',
  subscriptionStatusLabel: 'Status',
  subscriptionStatuses: {
    active: 'Active',
    trialing: 'Trial',
    past_due: 'Payment overdue: Stripe is retrying it',
    unpaid: 'Unpaid',
    paused: 'Paused',
    canceled: 'Cancelled',
    incomplete: 'Waiting for the first payment',
    incomplete_expired: 'Never paid',
    expired: 'Expired',
    revoked: 'Refunded',
  },
  subscriptionRenews: 'Renews on {date}.',
  subscriptionEnds: 'Ends on {date}: it will not renew.',
  subscriptionThrough: { stripe: 'Paid through Stripe', apple: 'Bought in the App Store' },
  subscriptionApple:
    'This subscription was bought in the Spinroom app for iPhone: change or cancel it in the App Store (Settings, your name, Subscriptions), not here.',
  manageSubscription: 'Manage subscription',
  manageSubscriptionHint: "Change your plan, cancel, or see your invoices in Stripe's billing portal.",
  portalOpening: 'Opening the billing portal…',
  subscribedTitle: 'Thank you for subscribing',
  subscribedText: 'Your subscription starts as soon as Stripe confirms the payment. This page updates by itself.',
  subscribedWaiting: 'Waiting for Stripe to confirm your subscription…',
  subscribedActive: 'Your subscription is active: level {level}.',
};

export type SubscriptionStrings = Omit<typeof en, 'subscriptionStatuses'> & {
  /** Stripe's and Apple's statuses in words; another status shows as the provider names it. */
  subscriptionStatuses: Readonly<Record<string, string>>;
};

const es: SubscriptionStrings = {
  subscriptionTitle: 'Suscripción',
  subscriptionIntro:
    'Una suscripción te da su nivel mientras dura: los avatares de suscriptores, entre otras cosas. Se paga con tarjeta a través de Stripe y se renueva sola hasta que la canceles.',
  subscriptionPlans: 'Planes de suscripción',
  noSubscriptionPlans: 'Todavía no hay planes de suscripción a la venta.',
  subscriptionPrice: {
    day: '{price} al día',
    week: '{price} a la semana',
    month: '{price} al mes',
    year: '{price} al año',
  },
  subscriptionLevel: 'Nivel: {level}',
  subscriptionPlanLabel: 'Plan',
  subscriptionLevelLabel: 'Nivel',
  subscribeTo: 'Suscribirse a {plan}',
  yourPlan: 'Tu plan',
  yourSubscription: 'Tu suscripción',
  noSubscription: 'No tienes ninguna suscripción.',
  subscriptionStatusLabel: 'Estado',
  subscriptionStatuses: {
    active: 'Activa',
    trialing: 'De prueba',
    past_due: 'Pago atrasado: Stripe lo vuelve a intentar',
    unpaid: 'Sin pagar',
    paused: 'En pausa',
    canceled: 'Cancelada',
    incomplete: 'Esperando el primer pago',
    incomplete_expired: 'Nunca pagada',
    expired: 'Caducada',
    revoked: 'Reembolsada',
  },
  subscriptionRenews: 'Se renueva el {date}.',
  subscriptionEnds: 'Termina el {date}: no se renovará.',
  subscriptionThrough: { stripe: 'Pagada a través de Stripe', apple: 'Comprada en el App Store' },
  subscriptionApple:
    'Esta suscripción se compró en la app de Spinroom para iPhone: cámbiala o cancélala en el App Store (Ajustes, tu nombre, Suscripciones), no aquí.',
  manageSubscription: 'Gestionar la suscripción',
  manageSubscriptionHint: 'Cambia de plan, cancela o consulta tus facturas en el portal de facturación de Stripe.',
  portalOpening: 'Abriendo el portal de facturación…',
  subscribedTitle: 'Gracias por suscribirte',
  subscribedText: 'Tu suscripción empieza en cuanto Stripe confirme el pago. Esta página se actualiza sola.',
  subscribedWaiting: 'Esperando a que Stripe confirme tu suscripción…',
  subscribedActive: 'Tu suscripción está activa: nivel {level}.',
};

/** The Subscription section's strings in the chosen language. */
export function useSubscriptionT(): SubscriptionStrings {
  return useLocale() === 'es' ? es : en;
}
