// How a sandbox behaves, as one object from `sandbox start` (or a test) to the server and every route: its clock,
// added latency, injected faults, how long its jobs take, its search and enrichment limits, and the seed's size.
import type { Clock } from '../context.js';
import type { FaultOptions } from './faults.js';
import { defaultEnrichmentLimits, defaultSearchDisplayLimit, type EnrichmentLimits } from './model.js';

export interface SandboxSettings {
  /** The clock the API sees; the sandbox adds its own offset (POST /_sandbox/clock). */
  clock: Clock;
  faults?: FaultOptions;
  /** Added to every answer, in ms. */
  latencyMs: number;
  /** How long a purchased domain stays inProgress before it is active, in ms. */
  provisionMs: number;
  /** How long an enrichment job takes to process everyone, in ms. */
  enrichmentMs: number;
  /** How many people of a search the account may page through (display_limit). */
  displayLimit: number;
  enrichmentLimits: EnrichmentLimits;
  /** Webhook delivery: one attempt's deadline, the waits before later attempts, and how they wait (default: the
   * clock's sleep). */
  webhookDelivery: { timeoutMs: number; retryDelaysMs: number[]; sleep?: Clock['sleep'] };
  /** How many tasks a fresh state (or a reset) lays out. */
  seed: { tasks?: number };
  /** How long a request's body may take to arrive and how that wait is made (default: the clock's sleep); false for
   * none (the in-process sandbox, whose one client is the process that holds its key). */
  bodyDeadline: { ms?: number; sleep?: Clock['sleep'] } | false;
}

export const defaultSettings: Omit<SandboxSettings, 'clock'> = {
  latencyMs: 0,
  provisionMs: 5_000,
  enrichmentMs: 3_000,
  displayLimit: defaultSearchDisplayLimit,
  enrichmentLimits: defaultEnrichmentLimits,
  webhookDelivery: { timeoutMs: 5_000, retryDelaysMs: [200, 1_000] },
  seed: {},
  bodyDeadline: {},
};

/** Settings as given: the clock, and any others (the webhook delivery's in part). */
export type GivenSettings = Partial<Omit<SandboxSettings, 'clock' | 'webhookDelivery'>> &
  Pick<SandboxSettings, 'clock'> & { webhookDelivery?: Partial<SandboxSettings['webhookDelivery']> };

/** The settings given, the defaults for the rest. */
export function sandboxSettings(given: GivenSettings): SandboxSettings {
  const defined = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  return {
    ...defaultSettings,
    ...defined,
    enrichmentLimits: { ...defaultSettings.enrichmentLimits, ...given.enrichmentLimits },
    webhookDelivery: { ...defaultSettings.webhookDelivery, ...given.webhookDelivery },
  } as SandboxSettings;
}
