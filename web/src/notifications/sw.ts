// The service worker, built to /sw.js (its own entry in web/vite.config.ts, no
// shared chunks: a classic script the browser registers at the site's root, so
// its scope is the whole client). It shows the social service's Web Push
// messages and opens their page on a click (serviceWorker.ts).
import { installServiceWorker, type ServiceWorkerScope } from './serviceWorker';

installServiceWorker(globalThis as unknown as ServiceWorkerScope);
