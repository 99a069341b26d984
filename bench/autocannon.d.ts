// Minimal typings for the parts of autocannon@8 the benchmarks use (the package ships none).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      title?: string;
      method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
      headers?: Record<string, string>;
      body?: string | Buffer;
      connections?: number;
      pipelining?: number;
      /** seconds */
      duration?: number;
      /** seconds */
      timeout?: number;
      amount?: number;
      workers?: number;
      bailout?: number;
      /** record latency of non-2xx answers too */
      excludeErrorStats?: boolean;
      setupClient?: (client: unknown) => void;
      /** a sequence of requests each connection cycles through; setupRequest may rewrite each before it is sent */
      requests?: { method?: string; path?: string; headers?: Record<string, string>; setupRequest?: (req: { path?: string; [k: string]: unknown }) => { path?: string; [k: string]: unknown } }[];
    }

    /** Percentiles as autocannon reports them: p50, p90, p97_5, p99, ... */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p0_001: number;
      p0_01: number;
      p0_1: number;
      p1: number;
      p2_5: number;
      p10: number;
      p25: number;
      p50: number;
      p75: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
      p99_99: number;
      p99_999: number;
      [k: string]: number;
    }

    interface Result {
      title?: string;
      url: string;
      connections: number;
      pipelining: number;
      /** seconds */
      duration: number;
      samples: number;
      start: Date;
      finish: Date;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      /** milliseconds; 2xx answers only unless excludeErrorStats is false */
      latency: Histogram & { totalCount: number };
      /** per-second samples */
      requests: Histogram & { sent: number };
      /** bytes per second samples */
      throughput: Histogram;
    }

    interface Instance extends EventEmitter {
      stop(): void;
      on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void): this;
      on(event: 'reqError', listener: (error: Error) => void): this;
      on(event: 'done', listener: (result: Result) => void): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(opts: autocannon.Options, cb: (err: Error | null, result: autocannon.Result) => void): autocannon.Instance;

  export = autocannon;
}
