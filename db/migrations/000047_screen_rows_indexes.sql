-- A screen as of a date reads, per basis, the rows whose span holds that date: a GiST index on the
-- span for each latest basis, the fiscal years by year for a screen of one fiscal year, and the
-- first row of each slot by date (the companies whose period of the slot was not yet known).
CREATE INDEX screen_rows_latest_fy ON screen_rows USING gist (daterange(known_from, known_until, '[)')) WHERE kind = 'latest' AND basis = 'FY';
CREATE INDEX screen_rows_latest_q ON screen_rows USING gist (daterange(known_from, known_until, '[)')) WHERE kind = 'latest' AND basis = 'Q';
CREATE INDEX screen_rows_latest_ttm ON screen_rows USING gist (daterange(known_from, known_until, '[)')) WHERE kind = 'latest' AND basis = 'TTM';
CREATE INDEX screen_rows_fiscal_year ON screen_rows (fiscal_year, known_from) WHERE kind = 'period';
CREATE INDEX screen_rows_opens ON screen_rows (kind, basis, fiscal_year, known_from) WHERE opens;
