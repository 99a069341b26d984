-- The rows screens and comparisons read (domain/screens/rows.ts): per company, each metric of a
-- period as it was known over a span of dates, so a read as of a date is one index lookup per
-- company and never a pass over statement versions. kind 'period' holds every fiscal year (basis
-- FY); kind 'latest' holds, per basis (FY: the latest fiscal year, Q: the latest quarter, TTM: the
-- latest trailing-twelve-month window), the period that was the latest one. A row holds from
-- known_from (the filing date that made it so) up to, not including, known_until (NULL: still
-- holds). sources names the statement versions the values come from; metrics holds decimal
-- strings; unavailable the reason of each metric that could not be computed; vals the same values
-- as one array in the fixed order of domain/screens/rows.ts (SCREEN_METRICS), small enough to stay
-- in the row, so a screen's conditions read no TOAST. Rewritten for a company whenever ingestion
-- adds versions to it.
CREATE TABLE screen_rows (
  cik char(10) NOT NULL CHECK (cik ~ '^[0-9]{10}$'),
  kind text NOT NULL CHECK (kind IN ('period', 'latest')),
  basis text NOT NULL CHECK (basis IN ('FY', 'Q', 'TTM')),
  fiscal_year integer NOT NULL,
  fiscal_period text NOT NULL,
  period_start date,
  period_end date NOT NULL,
  currency text,
  accounting_standard text NOT NULL,
  filing_date date NOT NULL,
  known_from date NOT NULL,
  known_until date CHECK (known_until IS NULL OR known_until > known_from),
  -- the first row of its slot for the company: before known_from it had no such period
  opens boolean NOT NULL,
  sources jsonb NOT NULL,
  metrics jsonb NOT NULL,
  unavailable jsonb NOT NULL,
  vals numeric[] NOT NULL,
  PRIMARY KEY (cik, kind, basis, fiscal_year, fiscal_period, known_from)
);
-- vals is read by every screen condition: kept in the row, uncompressed (the other documents move out)
ALTER TABLE screen_rows ALTER COLUMN vals SET STORAGE PLAIN;
