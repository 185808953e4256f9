/**
 * The condition that fences a write by the lease token in parameter `param`:
 * true when no token is given (a write outside a lease: a reader, a test)
 * or when the run's lease is still that token's.
 */
export function FENCE(param: string): string {
  return `(${param}::text IS NULL OR EXISTS (SELECT 1 FROM orchestra.leases WHERE run_key = $1 AND token = ${param}))`;
}
