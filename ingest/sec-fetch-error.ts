/**
 * Raised for SEC answers that are neither data nor "absent" (403, 400, retries exhausted), so
 * ingest jobs can tell "SEC refused us" from a bug and log the URL and status that failed.
 */
export class SecFetchError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly status: number | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SecFetchError';
  }
}
