import type { Logger } from './logging.js';

/**
 * Runs the given closers once, in order, on SIGTERM or SIGINT, then exits.
 * Services register what they opened (servers first, then clients and pools).
 */
export function closeOnSignals(logger: Logger, close: () => Promise<void>): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    close()
      .then(() => process.exit(0))
      .catch((error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
