/**
 * What an instance knows about its database between requests. After a request failed because the
 * database could not be reached, further requests are answered 503 at once instead of each queueing
 * for a connection that will not come, while one request at a time goes through as a probe; the
 * first that succeeds closes the circuit and everything flows again. Nothing runs in the background:
 * requests themselves are the probes.
 */
export class DatabaseCircuit {
  private downSince: number | null = null;
  private probing = false;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Whether the database was unreachable at the last attempt (readiness reports it). */
  get down(): boolean {
    return this.downSince !== null;
  }

  /**
   * Whether a request may use the database now: always while it is up; while it is down, only one
   * request at a time (the probe). A request admitted here must report `succeeded` or `failed`, or
   * `released` when it ended without learning anything about the database.
   */
  admit(): boolean {
    if (this.downSince === null) return true;
    if (this.probing) return false;
    this.probing = true;
    return true;
  }

  succeeded(): void {
    this.downSince = null;
    this.probing = false;
  }

  failed(): void {
    this.downSince ??= this.now();
    this.probing = false;
  }

  released(): void {
    this.probing = false;
  }
}
