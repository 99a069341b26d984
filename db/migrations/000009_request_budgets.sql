-- Request budgets counted where every instance of the service sees them: one row per budget bucket
-- (key and request class) and fixed window. UNLOGGED: a crash may forget the current minute's
-- counts, which only ever lets a caller through early; in exchange each count is a cheap write.
CREATE UNLOGGED TABLE request_budgets (
  bucket       text NOT NULL,
  window_start timestamptz NOT NULL,
  used         integer NOT NULL CHECK (used >= 0),
  PRIMARY KEY (bucket, window_start)
);
