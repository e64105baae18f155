// Every dictionary loaded before any test: the tests switch languages and read es strings at once.
import { loadLocale } from '../src/i18n/i18n';

await loadLocale('es');
