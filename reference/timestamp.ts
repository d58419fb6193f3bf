/** ISO 8601 without fractional seconds: YYYY-MM-DDTHH:MM:SSZ. */
export function timestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
