/**
 * The platform's Kafka topics, once: the services publish and read them by
 * these names, and the chart's topics Job creates each (with a `.dlq` twin)
 * with these partitions and retention (helm/spinroom/values.yaml's
 * `kafka.topics`, checked against this list by test/deploy/helm-chart.test.ts).
 * Their messages are the protos in proto/spinroom/events.
 */
const DAY_MS = 86_400_000;

export const TOPICS = {
  /** The user service's outbox: sign-ups, profile and phone number changes. */
  userEvents: { name: 'user-events', partitions: 6, retentionMs: 7 * DAY_MS },
  /** The upload service's outbox: songs verified and withdrawn. */
  uploadEvents: { name: 'upload-events', partitions: 6, retentionMs: 7 * DAY_MS },
  /** The room service's outbox: rooms changed and deleted, songs played, the stage. */
  roomEvents: { name: 'room-events', partitions: 12, retentionMs: 7 * DAY_MS },
  /** Moderation by the user and room services; stored by the audit service. */
  moderationActions: { name: 'moderation-actions', partitions: 6, retentionMs: 30 * DAY_MS },
  /** Notifications requested by any service, delivered by the social service. */
  notifications: { name: 'notifications', partitions: 6, retentionMs: 3 * DAY_MS },
  /** The listeners' play records through /kinesis (the audit service's aggregates, the points service's listens). */
  playTracking: { name: 'play-tracking', partitions: 12, retentionMs: 30 * DAY_MS },
  /** /kinesis page views, for analytics downstream. */
  pageViews: { name: 'page-views', partitions: 6, retentionMs: 30 * DAY_MS },
  /** /kinesis app events, for analytics downstream. */
  appEvents: { name: 'app-events', partitions: 6, retentionMs: 30 * DAY_MS },
  /** The points service's outbox: consumables bought (the room's chat shows them). */
  pointsEvents: { name: 'points-events', partitions: 6, retentionMs: 7 * DAY_MS },
  /** The social service's outbox: friend invitations and their answers, DJs followed. */
  socialEvents: { name: 'social-events', partitions: 6, retentionMs: 7 * DAY_MS },
} as const satisfies Record<string, { name: string; partitions: number; retentionMs: number }>;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS]['name'];
