/** The import statuses of spec/vocabulary.ts, read again from document 2's "Import status" table. */
import { describe, expect, it } from 'vitest';
import { readSpecDocument } from '../src/spec-units.js';
import { IMPORT_PROGRESSION, IMPORT_RESTING, IMPORT_RUNNING, IMPORT_STATUSES, IMPORT_UNDETECTED } from '../spec/vocabulary.js';

/** The table's rows as [state, trigger, condition, next state, also]. */
const rows = readSpecDocument(2).split('### Import status\n')[1]!.split('\n\n')[0]!.split('\n').slice(2)
  .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
/** Every state a row starts from or leads to ("any" stands for all of them; "(none)", "new import" are not states). */
const states = [...new Set(rows.flatMap(([state, , , next]) => [state!, next!]).filter((s) => /^[a-z_]+$/.test(s) && s !== 'any'))];
/** "detection ends", "push ends": the steps an import leaves by itself. */
const endsByItself = rows.filter(([, trigger]) => / ends$/.test(trigger!));
const sorted = (list: readonly string[]) => [...list].sort();

describe('import statuses', () => {
  it('are the states of the table, every one', () => {
    expect(rows.length).toBeGreaterThan(10);
    expect(sorted(IMPORT_STATUSES)).toEqual(sorted(states));
  });

  it('running: those the table leaves by themselves; resting: every other', () => {
    expect(sorted(IMPORT_RUNNING)).toEqual(sorted(endsByItself.map(([state]) => state!)));
    expect(sorted(IMPORT_RESTING)).toEqual(sorted(states.filter((s) => !endsByItself.some(([state]) => state === s))));
  });

  it('progress from detecting, one step at a time, to complete', () => {
    const steps = ['detecting'];
    for (let at = steps[0]; at;) steps.push(at = endsByItself.find(([state]) => state === at)?.[3] ?? '');
    expect(steps.filter(Boolean)).toEqual([...IMPORT_PROGRESSION]);
  });

  it('undetected: detecting, and the states detection ends in without a type', () => {
    expect(sorted(IMPORT_UNDETECTED)).toEqual(sorted(states.filter((s) => s.startsWith('detect'))));
  });
});
