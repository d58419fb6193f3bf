/** What skipped checks needed: the notice of a profile without tokens, and the diagnosis of a run that checked nothing. */
import { SKIP_FIXES, type CheckResult, type SkipReason } from '../core/model.js';
import type { Profile } from '../core/profile.js';
import type { CheckSpec } from '../core/suite.js';

const NO_PROFILE_FIX = 'no profile: write one with `conformance reference --write-profile <file>` as an example, see docs/profile.md';

const hasTokens = (profile: Profile) => Object.keys(profile.tokens ?? {}).length > 0;

/** Without tokens only the anonymous-capable checks can run: say once what the others need. */
export function tokenlessNotice(specs: readonly CheckSpec[], profile: Profile): string | undefined {
  if (hasTokens(profile)) return undefined;
  const needing = new Map<string, number>();
  for (const spec of specs) for (const token of spec.needs?.tokens ?? []) needing.set(token, (needing.get(token) ?? 0) + 1);
  const count = specs.filter((s) => s.needs?.tokens?.length).length;
  if (!count) return undefined;
  const tokens = [...needing].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} (${n})`).join(', ');
  return `the profile names no token: ${specs.length - count} checks need none; ${count} need one (${tokens}) and are skipped — ${NO_PROFILE_FIX}`;
}

/** The diagnosis of a run in which no check passed, warned or failed: the main skip reasons and how to fix each. */
export function nothingChecked(checks: readonly CheckResult[], profile: Profile): string | undefined {
  if (!checks.length || checks.some((c) => c.outcome === 'pass' || c.outcome === 'fail' || c.outcome === 'warn')) return undefined;
  const byReason = new Map<SkipReason, CheckResult[]>();
  for (const c of checks) if (c.skipReason) byReason.set(c.skipReason, [...(byReason.get(c.skipReason) ?? []), c]);
  const main = [...byReason].sort((a, b) => b[1].length - a[1].length).slice(0, 3).map(([reason, skipped]) => {
    const fix = reason === 'missing-token' && !hasTokens(profile) ? NO_PROFILE_FIX : `${skipped[0]!.message}: ${SKIP_FIXES[reason]}`;
    return `${skipped.length} skipped (${reason}; ${fix})`;
  });
  // Info is an observation where the spec shows no rule: it judges nothing, so it is not a check that ran (exit 2, not 0).
  const observed = checks.filter((c) => c.outcome === 'info');
  if (observed.length) {
    main.push(`${observed.length} only observed behaviour the spec does not show (${observed.slice(0, 3).map((c) => c.id).join(', ')}${observed.length > 3 ? ', …' : ''}; `
      + 'the report lists what was seen, but no stated rule was judged: select checks of stated rules too, see --list)');
  }
  return `nothing was checked: no check of ${checks.length} passed or failed; ${main.join('; ')}`;
}
