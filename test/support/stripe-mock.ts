import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** stripe-mock's binary: STRIPE_MOCK_BIN (scripts/test.ts sets it), else deploy/tools/install.sh's. */
export const STRIPE_MOCK_BIN =
  process.env.STRIPE_MOCK_BIN ?? join(process.env.SPINROOM_LOCAL_DIR ?? join(repoRoot, '.local'), 'tools/bin/stripe-mock');

export interface StripeMock {
  /** http://127.0.0.1:<port> */
  apiBase: string;
  stop(): Promise<void>;
}

/**
 * Starts Stripe's own mock API server (github.com/stripe/stripe-mock, built by
 * `bash deploy/tools/install.sh stripe-mock`) on a free loopback port and
 * answers once it listens.
 */
export async function startStripeMock(): Promise<StripeMock> {
  if (!existsSync(STRIPE_MOCK_BIN)) {
    throw new Error(`stripe-mock is not at ${STRIPE_MOCK_BIN}: run bash deploy/tools/install.sh stripe-mock`);
  }
  // HTTPS on a free port too: by default it takes :12112 and exits when that is taken (npm start's stripe-mock holds it).
  const child: ChildProcess = spawn(STRIPE_MOCK_BIN, ['-http-addr', '127.0.0.1:', '-https-addr', '127.0.0.1:'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`stripe-mock did not start: ${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening for HTTP at address: .*:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`stripe-mock exited (${code}): ${output}`));
    });
  });
  child.stdout?.removeAllListeners('data').resume();
  child.stderr?.removeAllListeners('data').resume();
  return {
    apiBase: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * A checkout.session.completed event as Stripe sends it for a paid session
 * the payment service's checkout made (its metadata names the product, the
 * buyer and the tokens), as the webhook's body: sign it with the stripe
 * package's generateTestHeaderString.
 */
export function checkoutCompletedEvent(
  session: { id: string; userUuid: string; productId: string; tokens: number },
  eventId = `evt_${randomUUID()}`,
): string {
  return JSON.stringify({
    id: eventId,
    object: 'event',
    type: 'checkout.session.completed',
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: session.userUuid,
        metadata: { productId: session.productId, userUuid: session.userUuid, tokens: String(session.tokens) },
      },
    },
  });
}
