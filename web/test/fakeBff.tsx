import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';

/** A request the component sent, as the fake BFF saw it. */
export interface SentRequest {
  method: string;
  path: string;
  search: string;
  body?: Record<string, unknown>;
}

/** A JSON answer, as the BFF sends one. */
export const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });

/**
 * Stubs `fetch` with the BFF's paths as a test answers them (`answer`
 * returning undefined: 404); every request is recorded, in order.
 */
export function stubBff(answer: (request: SentRequest) => Response | undefined): SentRequest[] {
  const requests: SentRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const { pathname: path, search } = new URL(url, 'http://x');
      const body = init?.body ? (JSON.parse(init.body as string) as Record<string, unknown>) : undefined;
      const request = { method: init?.method ?? 'GET', path, search, body };
      requests.push(request);
      return answer(request) ?? json({ message: 'Not Found' }, 404);
    }),
  );
  return requests;
}

/** Renders a component with a fresh React Query client. */
export const renderWithQueries = (node: ReactNode) => render(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>);
