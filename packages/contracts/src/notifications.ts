/**
 * The kinds of notification (the `notifications` topic's `kind`, a person's
 * muted kinds), once for the services that send them, the social service that
 * delivers them, the BFF's schemas and the web client's settings. A kind the
 * social service does not know is delivered as `custom`.
 */
export const NOTIFICATION_KINDS = [
  'djOnStage',
  'seatOpen',
  'friendInvitation',
  'friendInvitationAnswered',
  'directMessage',
  // A community event's room goes live (the room service's event job tells the community's members).
  'eventLive',
  'custom',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
