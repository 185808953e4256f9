import fc from 'fast-check';
import { formatCost } from '@orchestra/core';
import { describe, expect, it } from 'vitest';
import { moneyText } from '../web/format.js';

/**
 * The page's `moneyText` is a copy of core's `formatCost` (importing core's
 * usage module would bring zod into the page's bundle): the page must print
 * a cost as `orchestra status` and the run's stage lines do.
 */
describe("the page's money text", () => {
  it('is what core prints, for any amount and currency', () => {
    const amount = fc.oneof(
      fc.double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(0, 0.00005, 0.99994, 0.99995, 0.999999, 1, 1.005, 12.345),
    );
    const currency = fc.oneof(fc.constantFrom('USD', 'EUR', 'usd'), fc.string({ minLength: 1, maxLength: 5 }));
    fc.assert(
      fc.property(amount, currency, (a, c) => {
        expect(moneyText({ amount: a, currency: c })).toBe(formatCost({ amount: a, currency: c }));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives dollars a sign and other currencies their code', () => {
    expect(moneyText({ amount: 0.00027, currency: 'USD' })).toBe('$0.0003');
    expect(moneyText({ amount: 12.345, currency: 'USD' })).toBe('$12.35');
    expect(moneyText({ amount: 0.18, currency: 'EUR' })).toBe('0.1800 EUR');
  });
});
