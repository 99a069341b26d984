-- Quarters a statement version does not serve, and why (domain/normalize/statement-presentation.ts
-- UnavailableFigure): a fourth quarter whose year was told again without nine months on its basis,
-- or a year-to-date difference a never-negative line cannot take. One entry per metric:
-- { metric, reason, value, calculation_steps, source_accession }; null where there are none.
ALTER TABLE statement_versions ADD COLUMN unavailable_figures jsonb;
