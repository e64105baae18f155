import { useEffect, useState } from 'react';

/** Renders again when `at` passes (a status that ends at a time, e.g. chat disabled until then). */
export function useRerenderAt(at: Date | null): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!at) return;
    const wait = at.getTime() - Date.now();
    if (wait > 2 ** 31 - 1) return;
    const timer = setTimeout(() => setTick((n) => n + 1), Math.max(0, wait) + 50);
    return () => clearTimeout(timer);
  }, [at]);
}
