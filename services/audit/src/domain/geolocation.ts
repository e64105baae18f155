import { isIP } from 'node:net';
import { badRequest } from '@spinroom/platform';

/** What geoip-lite answers for an address (its Lookup). */
export interface GeoRecord {
  country: string;
  region: string;
  city: string;
  timezone: string;
  eu: '0' | '1';
  ll: [number, number];
  metro: number;
  area: number;
}

export interface GeoDatabase {
  lookup(ip: string): GeoRecord | null;
}

export interface Geolocation {
  ip: string;
  found: boolean;
  country: string;
  region: string;
  city: string;
  timezone: string;
  eu: boolean;
  latitude: number;
  longitude: number;
  metro: number;
  area: number;
}

/** An IPv4 address written as IPv6 (::ffff:1.2.3.4, what a dual-stack socket reports) as plain IPv4. */
export function plainAddress(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}

/**
 * Where an address is, from a database on disk (geoip-lite's, shipped in the
 * package: never a network call). The database is read on the first lookup,
 * not at start: it is large, and most processes never ask.
 */
export class Geolocator {
  private database?: Promise<GeoDatabase>;

  constructor(private readonly open: () => Promise<GeoDatabase>) {}

  async locate(rawIp: string): Promise<Geolocation> {
    const ip = plainAddress(rawIp.trim());
    if (isIP(ip) === 0) throw badRequest('ip: must be an IPv4 or IPv6 address');
    this.database ??= this.open();
    const record = (await this.database).lookup(ip);
    if (!record) {
      return { ip, found: false, country: '', region: '', city: '', timezone: '', eu: false, latitude: 0, longitude: 0, metro: 0, area: 0 };
    }
    return {
      ip,
      found: true,
      country: record.country,
      region: record.region,
      city: record.city,
      timezone: record.timezone,
      eu: record.eu === '1',
      latitude: record.ll[0],
      longitude: record.ll[1],
      metro: record.metro,
      area: record.area,
    };
  }
}

/** geoip-lite's database, loaded from its package's data folder. */
export async function geoipLite(): Promise<GeoDatabase> {
  // A CommonJS module: its exports are the default import's.
  const geoip = (await import('geoip-lite')).default;
  return { lookup: (ip) => geoip.lookup(ip) };
}
