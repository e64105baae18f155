import type { Logger } from '@spinroom/platform';
import { heldBack, reaches, type Device, type Notification, type NotificationPreferences, type PushChannel } from './notification.js';

/** A person's devices, and forgetting one its push service reports gone. */
export interface DeviceDirectory {
  devicesOf(userUuid: string): Promise<Device[]>;
  remove(device: Device): Promise<void>;
}

export interface PreferenceReader {
  preferencesOf(userUuid: string): Promise<NotificationPreferences>;
}

/** The channels by device type; a channel without credentials is absent (off). */
export interface PushChannels {
  web?: PushChannel<Extract<Device, { type: 'web' }>>;
  android?: PushChannel<Extract<Device, { type: 'android' | 'ios' }>>;
  ios?: PushChannel<Extract<Device, { type: 'android' | 'ios' }>>;
}

export interface DeliveryReport {
  heldBack: 'muted' | 'quietHours' | null;
  sent: number;
  /** Devices the push service reported gone, now removed. */
  removed: number;
  /** Devices whose channel is off or whose push failed. */
  failed: number;
}

/**
 * Delivers one notification to each of its recipient's devices, through the
 * channel of the device's type, unless the person's preferences hold it back.
 * A device the push service reports gone is removed. One device's failure does
 * not keep the others from theirs (and is not retried: the others already
 * have it).
 */
export class NotificationDelivery {
  constructor(
    private readonly devices: DeviceDirectory,
    private readonly preferences: PreferenceReader,
    private readonly channels: PushChannels,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async deliver(notification: Notification): Promise<DeliveryReport> {
    const report: DeliveryReport = { heldBack: null, sent: 0, removed: 0, failed: 0 };
    report.heldBack = heldBack(await this.preferences.preferencesOf(notification.recipientUuid), notification, this.now());
    if (report.heldBack) return report;
    const devices = (await this.devices.devicesOf(notification.recipientUuid)).filter((device) => reaches(notification.channel, device));
    await Promise.all(
      devices.map(async (device) => {
        const channel = this.channelFor(device);
        if (!channel) {
          report.failed += 1;
          return;
        }
        try {
          const outcome = await channel.send(device, notification);
          if (outcome === 'gone') {
            await this.devices.remove(device);
            report.removed += 1;
          } else report.sent += 1;
        } catch (error) {
          report.failed += 1;
          this.logger.warn({ err: error, channel: channel.name, deviceId: device.id, notificationId: notification.id }, 'push failed');
        }
      }),
    );
    return report;
  }

  private channelFor(device: Device): PushChannel | undefined {
    return this.channels[device.type];
  }
}
