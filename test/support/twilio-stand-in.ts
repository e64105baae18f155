// A local stand-in for Twilio Verify v2 and Lookup v2, answering as Twilio
// does: form-encoded bodies, Basic auth (account SID and auth token), JSON
// answers, errors as `{code, message, more_info, status}`. Tests start it in
// process; `npm start` runs it as its own process (`main` below) when no real
// Twilio credentials are configured, and it prints each code to its own log.
import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export const TWILIO_STAND_IN_CREDENTIALS = {
  accountSid: `AC${'0'.repeat(31)}1`,
  authToken: 'stand-in-auth-token',
  verifyServiceSid: `VA${'0'.repeat(31)}1`,
};

/**
 * Numbers whose line type is not `mobile` (every other valid number is):
 * fictional 555-01xx numbers, so a person trying the platform can see each status.
 */
export const STAND_IN_LINE_TYPES: Record<string, string> = {
  '+12025550143': 'nonFixedVoip',
  '+12025550144': 'landline',
  '+12025550145': 'fixedVoip',
};

/** Verify's defaults: a code lives 10 minutes, 5 checks and 5 sends per verification. */
const CODE_TTL_MS = 10 * 60_000;
const MAX_CHECKS = 5;
const MAX_SENDS = 5;

interface Pending {
  sid: string;
  to: string;
  channel: string;
  code: string;
  checks: number;
  sends: number;
  createdAt: Date;
}

export interface TwilioStandInOptions {
  port?: number;
  host?: string;
  /** Told every code sent (development prints it; tests read `lastCode`). */
  onCode?: (to: string, channel: string, code: string) => void;
}

interface Reply {
  status: number;
  json: unknown;
}

const sid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;

function twilioError(status: number, code: number, message: string): Reply {
  return { status, json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}

export class TwilioStandIn {
  /** Every request: method, path and form fields (tests check what the adapter sent). */
  readonly requests: Array<{ method: string; path: string; form: URLSearchParams; authorized: boolean }> = [];
  readonly lineTypes = new Map(Object.entries(STAND_IN_LINE_TYPES));
  private readonly pending = new Map<string, Pending>();
  private readonly codes = new Map<string, string>();
  private faults: Array<{ status: number; api?: 'verify' | 'lookup' }> = [];

  private constructor(
    readonly url: string,
    private readonly close_: () => Promise<void>,
  ) {}

  static async start(options: TwilioStandInOptions = {}): Promise<TwilioStandIn> {
    let standIn: TwilioStandIn | undefined;
    const server = createServer((req, res) => {
      void readBody(req).then((body) => {
        const reply = standIn!.answer(req, body, options);
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
      });
    });
    await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    standIn = new TwilioStandIn(`http://127.0.0.1:${port}`, async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return standIn;
  }

  /** The user service's variables that point its adapter here (environment or config overrides). */
  get env() {
    return {
      TWILIO_API_URL: this.url,
      TWILIO_ACCOUNT_SID: TWILIO_STAND_IN_CREDENTIALS.accountSid,
      TWILIO_AUTH_TOKEN: TWILIO_STAND_IN_CREDENTIALS.authToken,
      TWILIO_VERIFY_SERVICE_SID: TWILIO_STAND_IN_CREDENTIALS.verifyServiceSid,
    };
  }

  /** The last code sent to `to`. */
  lastCode(to: string): string | undefined {
    return this.codes.get(to);
  }

  /** The next `times` calls (to one API, when named) answer `status` with Twilio's 20500 (or 20503) error body. */
  failNext(status = 500, times = 1, api?: 'verify' | 'lookup'): void {
    for (let i = 0; i < times; i += 1) this.faults.push({ status, api });
  }

  close(): Promise<void> {
    return this.close_();
  }

  private answer(req: IncomingMessage, body: string, options: TwilioStandInOptions): Reply {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const form = new URLSearchParams(body);
    const authorized = this.authorized(req);
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, form, authorized });
    if (!authorized) return twilioError(401, 20003, 'Authenticate');
    const api = url.pathname.startsWith('/v2/PhoneNumbers/') ? 'lookup' : 'verify';
    const fault = this.faults.findIndex((f) => !f.api || f.api === api);
    if (fault >= 0) {
      const [{ status }] = this.faults.splice(fault, 1) as [{ status: number }];
      return twilioError(status, status === 503 ? 20503 : 20500, 'Internal Server Error');
    }
    const verify = /^\/v2\/Services\/([^/]+)\/(Verifications|VerificationCheck)$/.exec(url.pathname);
    if (verify && req.method === 'POST') {
      if (verify[1] !== TWILIO_STAND_IN_CREDENTIALS.verifyServiceSid)
        return twilioError(404, 20404, `The requested resource ${url.pathname.slice(3)} was not found`);
      return verify[2] === 'Verifications' ? this.createVerification(form, options) : this.checkVerification(form, url.pathname);
    }
    const lookup = /^\/v2\/PhoneNumbers\/([^/]+)$/.exec(url.pathname);
    if (lookup && req.method === 'GET') return this.lookUp(decodeURIComponent(lookup[1]!), url.searchParams.get('Fields') ?? '');
    return twilioError(404, 20404, `The requested resource ${url.pathname} was not found`);
  }

  private authorized(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return false;
    const [user, ...rest] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    return user === TWILIO_STAND_IN_CREDENTIALS.accountSid && rest.join(':') === TWILIO_STAND_IN_CREDENTIALS.authToken;
  }

  private createVerification(form: URLSearchParams, options: TwilioStandInOptions): Reply {
    const to = form.get('To') ?? '';
    const channel = form.get('Channel') ?? '';
    if (!/^\+[1-9]\d{1,14}$/.test(to)) return twilioError(400, 60200, `Invalid parameter \`To\`: ${to}`);
    if (!['sms', 'whatsapp', 'call', 'email'].includes(channel)) return twilioError(400, 60200, 'Invalid parameter: Channel');
    if (channel === 'sms' && this.lineTypes.get(to) === 'landline')
      return twilioError(400, 60205, 'SMS is not supported by landline phone number');
    const now = new Date();
    let pending = this.pending.get(to);
    if (pending && now.getTime() - pending.createdAt.getTime() > CODE_TTL_MS) pending = undefined;
    if (pending && pending.sends >= MAX_SENDS) return twilioError(429, 60203, 'Max send attempts reached');
    if (pending) {
      pending.sends += 1; // Verify sends the same code again within a verification
      pending.channel = channel;
    } else {
      pending = {
        sid: sid('VE'),
        to,
        channel,
        code: String(randomInt(0, 1_000_000)).padStart(6, '0'),
        checks: 0,
        sends: 1,
        createdAt: now,
      };
      this.pending.set(to, pending);
    }
    this.codes.set(to, pending.code);
    options.onCode?.(to, channel, pending.code);
    return { status: 201, json: this.verification(pending, 'pending', false) };
  }

  private checkVerification(form: URLSearchParams, path: string): Reply {
    const to = form.get('To') ?? '';
    const code = form.get('Code') ?? '';
    const pending = this.pending.get(to);
    if (!pending || Date.now() - pending.createdAt.getTime() > CODE_TTL_MS)
      return twilioError(404, 20404, `The requested resource ${path.slice(3)} was not found`);
    pending.checks += 1;
    if (pending.checks > MAX_CHECKS) {
      this.pending.delete(to);
      return twilioError(429, 60202, 'Max check attempts reached');
    }
    if (code !== pending.code) return { status: 200, json: this.verification(pending, 'pending', false) };
    this.pending.delete(to); // an approved verification cannot be checked again
    return { status: 200, json: this.verification(pending, 'approved', true) };
  }

  private verification(pending: Pending, status: string, valid: boolean) {
    const { accountSid, verifyServiceSid } = TWILIO_STAND_IN_CREDENTIALS;
    return {
      sid: pending.sid,
      service_sid: verifyServiceSid,
      account_sid: accountSid,
      to: pending.to,
      channel: pending.channel,
      status,
      valid,
      amount: null,
      payee: null,
      lookup: { carrier: null },
      send_code_attempts: [{ attempt_sid: sid('VL'), channel: pending.channel, time: pending.createdAt.toISOString() }],
      date_created: pending.createdAt.toISOString(),
      date_updated: new Date().toISOString(),
      url: `https://verify.twilio.com/v2/Services/${verifyServiceSid}/Verifications/${pending.sid}`,
    };
  }

  private lookUp(number: string, fields: string): Reply {
    const valid = /^\+[1-9]\d{6,14}$/.test(number);
    const lineType = this.lineTypes.get(number) ?? 'mobile';
    const wantsLine = fields.split(',').includes('line_type_intelligence');
    return {
      status: 200,
      json: {
        calling_country_code: valid ? number.slice(1, 2) : null,
        country_code: valid && number.startsWith('+1') ? 'US' : null,
        phone_number: number,
        national_format: valid ? number : null,
        valid,
        validation_errors: valid ? [] : ['NOT_A_NUMBER'],
        caller_name: null,
        sim_swap: null,
        call_forwarding: null,
        line_status: null,
        line_type_intelligence:
          valid && wantsLine
            ? { error_code: null, mobile_country_code: null, mobile_network_code: null, carrier_name: 'Stand-in', type: lineType }
            : null,
        identity_match: null,
        reassigned_number: null,
        sms_pumping_risk: null,
        phone_number_quality_score: null,
        pre_fill: null,
        url: `https://lookups.twilio.com/v2/PhoneNumbers/${encodeURIComponent(number)}`,
      },
    };
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// `npm start` (development only): the stand-in as a process on TWILIO_STAND_IN_PORT, codes printed to its own log.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const standIn = await TwilioStandIn.start({
    port: Number(process.env.TWILIO_STAND_IN_PORT ?? 8190),
    onCode: (to, channel, code) => console.log(`code ${code} sent by ${channel} to ${to}`),
  });
  console.log(`Twilio stand-in (Verify, Lookup) on ${standIn.url}`);
  const stop = () => void standIn.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
