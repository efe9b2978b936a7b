// Injected failures, drawn reproducibly from a seed: the same seed and request order give the same faults.
import { seededRandom } from './prng.js';

export type FaultKind = 'error500' | 'rateLimit429' | 'unavailable503' | 'drop' | 'delay';
export const faultKinds: FaultKind[] = ['error500', 'rateLimit429', 'unavailable503', 'drop', 'delay'];

export interface FaultOptions {
  /** Share of API requests that get a fault, 0 to 1. */
  rate: number;
  seed: number;
  /** Limit the draw to these kinds (all by default). */
  kinds?: FaultKind[];
  /** How long a `delay` fault holds the answer. */
  delayMs?: number;
}

export function createFaultInjector(options: FaultOptions): () => FaultKind | undefined {
  const random = seededRandom(options.seed);
  const kinds = options.kinds?.length ? options.kinds : faultKinds;
  return () => {
    // Two draws per request whatever the outcome, so one request's fault never shifts the next one's.
    const hit = random() < options.rate;
    const pick = kinds[Math.floor(random() * kinds.length)]!;
    return hit ? pick : undefined;
  };
}
