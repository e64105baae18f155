import { AppError } from '@spinroom/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAND_IN_LINE_TYPES, TWILIO_STAND_IN_CREDENTIALS, TwilioStandIn } from '../../../test/support/twilio-stand-in.js';
import { TwilioPhones } from '../src/adapters/mobile-twilio.js';
import {
  canonicalPhone,
  numberingPlanCountry,
  PHONE_INVALID,
  parseChannel,
  requirePhone,
  statusOfLine,
} from '../src/domain/mobile/phones.js';

const [VOIP, LANDLINE] = Object.keys(STAND_IN_LINE_TYPES) as [string, string];

describe('phone rules', () => {
  it('writes numbers as E.164 and refuses what cannot be one with spec 002 message', () => {
    expect(canonicalPhone('+1 (415) 555-2671')).toBe('+14155552671');
    expect(canonicalPhone('+33 6 12 34 56 78')).toBe('+33612345678');
    for (const bad of ['4155552671', '+0123456789', '+12', '+1415555267112345', 'abc', `+${'1'.repeat(70)}`]) {
      expect(canonicalPhone(bad), bad).toBeUndefined();
    }
    expect(() => requirePhone('555')).toThrow(PHONE_INVALID);
  });

  it('finds a number valid in its numbering plan with libphonenumber-js', () => {
    expect(numberingPlanCountry('+14155552671')).toEqual({ country: 'US' });
    expect(numberingPlanCountry('+33612345678')).toEqual({ country: 'FR' });
    expect(numberingPlanCountry('+1202555')).toBeUndefined();
    expect(numberingPlanCountry('+99912345678')).toBeUndefined();
  });

  it('accepts mobile lines only: VoIP is VOIP, every other line type INVALID', () => {
    expect(statusOfLine({ valid: true, lineType: 'mobile' })).toBe('VALID');
    expect(statusOfLine({ valid: true, lineType: 'nonFixedVoip' })).toBe('VOIP');
    expect(statusOfLine({ valid: true, lineType: 'fixedVoip' })).toBe('VOIP');
    for (const lineType of ['landline', 'tollFree', 'pager', 'unknown', null])
      expect(statusOfLine({ valid: true, lineType })).toBe('INVALID');
    expect(statusOfLine({ valid: false, lineType: 'mobile' })).toBe('INVALID');
  });

  it('takes sms or whatsapp as channels', () => {
    expect(parseChannel('whatsapp')).toBe('whatsapp');
    expect(() => parseChannel('call')).toThrow(AppError);
  });
});

describe('TwilioPhones (the twilio library) against the Twilio stand-in', () => {
  let standIn: TwilioStandIn;
  const failures: object[] = [];
  const phones = () =>
    new TwilioPhones({ ...TWILIO_STAND_IN_CREDENTIALS, apiUrl: standIn.url, timeoutMs: 5000 }, (failure) => failures.push(failure));

  beforeAll(async () => {
    standIn = await TwilioStandIn.start();
  });
  afterAll(async () => {
    await standIn.close();
  });

  it('sends a code and checks it once, as Verify does', async () => {
    const twilio = phones();
    expect(await twilio.send('+14155552671', 'whatsapp')).toEqual({ status: 'pending' });
    const code = standIn.lastCode('+14155552671')!;
    expect(code).toMatch(/^\d{6}$/);
    const sent = standIn.requests.at(-1)!;
    expect([sent.method, sent.path, sent.authorized, sent.form.get('To'), sent.form.get('Channel')]).toEqual([
      'POST',
      `/v2/Services/${TWILIO_STAND_IN_CREDENTIALS.verifyServiceSid}/Verifications`,
      true,
      '+14155552671',
      'whatsapp',
    ]);
    expect(await twilio.check('+14155552671', code === '000000' ? '000001' : '000000')).toBe(false);
    expect(await twilio.check('+14155552671', code)).toBe(true);
    // Approved, the verification is gone: Verify answers 404, a wrong code to us.
    expect(await twilio.check('+14155552671', code)).toBe(false);
  });

  it("reads the line type from Lookup v2's line_type_intelligence", async () => {
    const twilio = phones();
    expect(await twilio.lookUp('+14155552671')).toEqual({ valid: true, lineType: 'mobile', countryCode: 'US' });
    expect((await twilio.lookUp(VOIP)).lineType).toBe('nonFixedVoip');
    const asked = standIn.requests.at(-1)!;
    expect([asked.method, decodeURIComponent(asked.path)]).toEqual(['GET', `/v2/PhoneNumbers/${VOIP}`]);
  });

  it("maps Twilio's refusals (landline for SMS, too many checks, bad credentials) and logs only their codes", async () => {
    const twilio = phones();
    await expect(twilio.send(LANDLINE, 'sms')).rejects.toMatchObject({ status: 400, message: PHONE_INVALID });
    await twilio.send('+14155550123', 'sms');
    for (let i = 0; i < 5; i += 1) await twilio.check('+14155550123', 'nope00');
    await expect(twilio.check('+14155550123', 'nope00')).rejects.toMatchObject({ status: 429 });
    const wrongCredentials = new TwilioPhones(
      { ...TWILIO_STAND_IN_CREDENTIALS, authToken: 'wrong', apiUrl: standIn.url, timeoutMs: 5000 },
      (failure) => failures.push(failure),
    );
    await expect(wrongCredentials.send('+14155552671', 'sms')).rejects.toMatchObject({ status: 503 });
    expect(failures).toEqual([
      { operation: 'send', status: 400, code: 60205 },
      { operation: 'check', status: 429, code: 60202 },
      { operation: 'send', status: 401, code: 20003 },
    ]);
    // Nothing a log line carries holds a number or a code.
    expect(JSON.stringify(failures)).not.toMatch(/\+\d{6,}|\d{6}\D/);
  });
});
