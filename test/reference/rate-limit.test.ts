import { describe, expect, it } from 'vitest';
import { RATE_CATEGORIES } from '../../spec/limits.js';
import { useReference } from '../helpers/reference.js';

describe('GET /rate_limit', () => {
  const ref = useReference();

  it('has every category, rate equal to core, reset in epoch seconds', async () => {
    const r = await ref.get('/rate_limit');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.resources).sort()).toEqual([...RATE_CATEGORIES].sort());
    expect(r.body.rate).toEqual(r.body.resources.core);
    const nowSeconds = Date.now() / 1000;
    for (const c of RATE_CATEGORIES) {
      const s = r.body.resources[c];
      for (const f of ['limit', 'remaining', 'reset', 'used']) expect(Number.isInteger(s[f])).toBe(true);
      expect(s.reset).toBeGreaterThan(nowSeconds - 1);
      expect(s.reset).toBeLessThan(nowSeconds + 2 * 3600);
    }
  });

  it('does not count against core', async () => {
    const a = await ref.get('/rate_limit');
    const b = await ref.get('/rate_limit');
    expect(b.body.resources.core.remaining).toBe(a.body.resources.core.remaining);
  });
});

describe('named faults in /rate_limit', () => {
  const ref = useReference({ faults: ['ratelimit-rate-differs', 'ratelimit-endpoint-counted'] });

  it('break the rules they name', async () => {
    const a = await ref.get('/rate_limit');
    expect(a.body.rate).not.toEqual(a.body.resources.core);
    const b = await ref.get('/rate_limit');
    expect(b.body.resources.core.remaining).toBeLessThan(a.body.resources.core.remaining);
  });
});
