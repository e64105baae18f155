// Prints the list of services (packages/platform/src/kit/service-list.ts) as
// JSON, for readers that are not TypeScript: the Tiltfile builds and deploys
// one image per entry.
import { SERVICES } from '@spinroom/platform/core';

process.stdout.write(`${JSON.stringify(SERVICES)}\n`);
