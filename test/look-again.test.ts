/** Looking again at a background job: soon first, then backing off, never past the bound it had. */
import { describe, expect, it } from 'vitest';
import { lookAgain, lookPauses } from '../core/look-again.js';

describe('lookPauses', () => {
  it('starts at 100 ms and doubles, the last pause cut so they add up to the bound', () => {
    expect(lookPauses(1500)).toEqual([100, 200, 400, 800]);
    expect(lookPauses(4000)).toEqual([100, 200, 400, 800, 1600, 900]);
    expect(lookPauses(50)).toEqual([50]);
    expect(lookPauses(0)).toEqual([]);
  });
});

describe('lookAgain', () => {
  /** Reads that come out 1, 2, 3, … and the pauses taken between them. */
  const counting = () => {
    const slept: number[] = [];
    let reads = 0;
    return { slept, sleep: async (ms: number) => { slept.push(ms); }, read: async () => (reads += 1) };
  };

  it('stops looking once the job shows done: a quick target costs one short pause', async () => {
    const { slept, sleep, read } = counting();
    expect(await lookAgain(sleep, read, (n) => n >= 2, 4000)).toBe(2);
    expect(slept).toEqual([100]);
  });

  it('does not pause when the first look shows it done', async () => {
    const { slept, sleep, read } = counting();
    expect(await lookAgain(sleep, read, () => true, 4000)).toBe(1);
    expect(slept).toEqual([]);
  });

  it('a job that never shows done is looked at until the bound, then the last look is answered', async () => {
    const { slept, sleep, read } = counting();
    expect(await lookAgain(sleep, read, () => false, 1500)).toBe(5);
    expect(slept.reduce((a, b) => a + b, 0)).toBe(1500);
  });
});
