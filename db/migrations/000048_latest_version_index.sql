-- "The latest version of a statement period (as of a date)": one backward scan of this index per
-- period, answered from the index alone (version id and filing date included), so the read that
-- picks versions never touches the rows, let alone their figures.
CREATE INDEX statement_versions_latest_idx
  ON statement_versions (cik, statement_type, fiscal_year, fiscal_period, version_sequence DESC)
  INCLUDE (filing_date, statement_version_id);
