import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './app/styles.css';
import { applyPageLanguage, currentLocale, loadLocale } from './i18n/i18n';

// The page is in the chosen language from the start (`?lang=es` or the stored choice), not only after a change.
applyPageLanguage();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      retry: (count, error) => count < 2 && !((error as { status?: number }).status! < 500),
      refetchOnWindowFocus: false,
    },
  },
});

// The chosen dictionary first (a chunk of its own unless English), so the first render is in its language.
void loadLocale(currentLocale())
  .catch(() => undefined) // not loaded: English until it is picked again
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
