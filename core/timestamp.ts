/** ISO 8601 without fractional seconds: YYYY-MM-DDTHH:MM:SSZ. */
export function timestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const SECONDS_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** A body with every timestamp given milliseconds (YYYY-MM-DDTHH:MM:SS.000Z): a fault's rendering. */
export function withMilliseconds(value: unknown): unknown {
  if (typeof value === 'string') return SECONDS_TIMESTAMP.test(value) ? value.replace('Z', '.000Z') : value;
  if (Array.isArray(value)) return value.map(withMilliseconds);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withMilliseconds(v)]));
  return value;
}
