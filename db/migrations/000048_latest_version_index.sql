-- "The latest version of a statement period (as of a date)" and "which periods a company has on a
-- date": one backward scan of this index per period, answered from the index alone (version id,
-- filing date and period end included), so the reads that pick versions never touch the rows, let
-- alone their figures.
CREATE INDEX statement_versions_latest_idx
  ON statement_versions (cik, statement_type, fiscal_year, fiscal_period, version_sequence DESC)
  INCLUDE (filing_date, statement_version_id, period_end);
