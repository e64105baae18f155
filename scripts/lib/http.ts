/**
 * JSON (or multipart) calls to the platform's REST API for the scripts
 * (seeding, benchmarks). A non-2xx answer throws, unless its status is allowed.
 */
export function apiClient(baseUrl: string) {
  return async function call(
    method: string,
    path: string,
    token?: string,
    body?: unknown,
    allow: number[] = [],
  ): Promise<Record<string, any>> {
    const form = body instanceof FormData;
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}),
      },
      body: form ? body : body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, any>;
    if (!res.ok && !allow.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.message ?? json)}`);
    return json;
  };
}
