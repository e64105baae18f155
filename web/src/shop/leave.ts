/** Goes to Stripe's page, checkout or billing portal (an object of its own so tests can watch it). */
export const leaveFor = { url: (url: string) => window.location.assign(url) };
