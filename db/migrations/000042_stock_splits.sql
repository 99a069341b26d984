-- The stock splits each company's periodic filings told (domain/statements/stock-splits.ts: a
-- tagged split ratio, or a split its own figures showed), with the exact ratio a split-adjusted
-- read restates per-share figures and share counts by (domain/statements/split-basis.ts):
-- numerator / denominator new shares per old share. known_from is the filing date of the first
-- filing that told the split: a point-in-time read applies it from then on. Rewritten for a
-- company each time its history is built (derived from the filings, like segments).
CREATE TABLE stock_splits (
  cik char(10) NOT NULL CHECK (cik ~ '^[0-9]{10}$'),
  split_date date NOT NULL,
  ratio text NOT NULL,
  numerator integer NOT NULL CHECK (numerator > 0),
  denominator integer NOT NULL CHECK (denominator > 0),
  evidence text NOT NULL CHECK (evidence IN ('TAGGED_RATIO', 'RESTATED_FIGURES')),
  known_from date NOT NULL,
  PRIMARY KEY (cik, split_date, ratio)
);
