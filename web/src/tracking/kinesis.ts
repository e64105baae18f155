// The audit service's /kinesis: play-tracking records (and analytics) as spec
// 002 sends them. Tracking never disturbs playback: a failed send is dropped.
import { api } from '../api/client';
import type { PlayEvent, PlayRecord } from './playTracker';

export interface DeviceData {
  platform: 'web';
  userAgent?: string;
  language?: string;
  timezone?: string;
}

export function deviceData(): DeviceData {
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return {
    platform: 'web',
    userAgent: navigator.userAgent.slice(0, 512),
    language: navigator.language?.slice(0, 35),
    timezone: timezone?.slice(0, 64),
  };
}

export function sendPlayEvent(event: PlayEvent, record: PlayRecord): void {
  const songInfo = {
    ...record.songInfo,
    trackName: record.songInfo.trackName?.slice(0, 500),
    artistName: record.songInfo.artistName?.slice(0, 500),
  };
  api
    .post(
      '/api/audit-service/kinesis',
      { topic: 'play-tracking', record: { event, ...record, songInfo, device: deviceData() } },
      { keepalive: true },
    )
    .catch(() => undefined);
}
