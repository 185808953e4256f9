import { z } from 'zod';

/** What a model's tokens cost: per million input and output tokens, in `currency`. */
export interface ModelPrice {
  input: number;
  output: number;
  /** An ISO 4217 code (default `USD`). */
  currency: string;
}

const perMillion = z.number({ error: 'expected a price per million tokens (a number, such as 2.5)' }).nonnegative({ error: 'a price cannot be negative' });

/**
 * `prices`: what models cost, so that `status`, the summary, `status.json`
 * and the web page show the cost of each stage and of the run.
 *
 * ```yaml
 * prices:
 *   currency: USD            # optional, the default
 *   models:
 *     gpt-4o: { input: 2.5, output: 10 }   # per million tokens
 * ```
 */
export const PricesConfigSchema = z.strictObject(
  {
    currency: z.string().regex(/^[A-Z]{3}$/, { error: 'expected a currency code such as USD or EUR' }).optional(),
    models: z
      .record(z.string().min(1), z.strictObject({ input: perMillion, output: perMillion }, { error: 'expected { input: <per million input tokens>, output: <per million output tokens> }' }), {
        error: 'expected a mapping of model ids to { input, output } prices',
      })
      .optional(),
  },
  { error: 'expected a mapping (currency:, models:)' },
);

/** The `prices` section as validated (the part of `OrchestraConfig` {@link priceOf} reads). */
export type PricesConfig = z.output<typeof PricesConfigSchema>;

/** The price of model `model` (the id sent to the provider), if `orchestra.yaml` gives one. */
export function priceOf(config: { prices?: PricesConfig | undefined }, model: string | undefined): ModelPrice | undefined {
  if (model === undefined) return undefined;
  const entry = config.prices?.models?.[model];
  return entry ? { input: entry.input, output: entry.output, currency: config.prices?.currency ?? 'USD' } : undefined;
}
