/**
 * "After several invalid attempts within a short time, every authentication attempt of that user,
 * even with valid credentials, is temporarily rejected with 403." The spec does not show the
 * number or the window; the reference's choice is documented in docs/reference-choices.md.
 */
export interface LockoutPolicy {
  attempts: number;
  windowMs: number;
  lockMs: number;
}

export const DEFAULT_LOCKOUT: LockoutPolicy = { attempts: 5, windowMs: 60_000, lockMs: 60_000 };

export class Lockout {
  private failures = new Map<string, number[]>();
  private lockedUntil = new Map<string, number>();

  constructor(private readonly policy: LockoutPolicy, private readonly now: () => number) {}

  isLocked(login: string): boolean {
    return (this.lockedUntil.get(login) ?? 0) > this.now();
  }

  /** Records an invalid attempt; returns whether the user is now locked. */
  recordFailure(login: string): boolean {
    const t = this.now();
    const recent = (this.failures.get(login) ?? []).filter((at) => t - at < this.policy.windowMs);
    recent.push(t);
    this.failures.set(login, recent);
    if (recent.length > this.policy.attempts) this.lockedUntil.set(login, t + this.policy.lockMs);
    return this.isLocked(login);
  }
}
