/**
 * The approved macro series: what each one measures and when a value of it becomes knowable.
 * Only registered series are loaded and served. The source files carry no vintages, so point in
 * time rests on `release_lag_days`: a value counts as knowable from its period end plus that lag
 * (docs/macro-and-queries.md lists the publisher schedule each lag comes from).
 */
export type MacroFrequency = 'daily' | 'monthly' | 'quarterly';

/** level: an amount or index (percent change is meaningful); rate: already a percent or a flag */
export type ChangeKind = 'level' | 'rate';

export interface MacroSeries {
  series_code: string;
  title: string;
  units: string;
  frequency: MacroFrequency;
  seasonal_adjustment: string;
  /** who publishes it and through whom we read it */
  source: string;
  /** calendar days after the period end before a value counts as knowable */
  release_lag_days: number;
  /** the publisher schedule the lag is taken from, for the registry route and the docs */
  release_lag_basis: string;
  /** a consumer price index: may deflate company series (/time-series/real) */
  is_cpi: boolean;
  change_kind: ChangeKind;
}

const FRED = (publisher: string) => `${publisher} via FRED (Federal Reserve Bank of St. Louis)`;

export const MACRO_SERIES: readonly MacroSeries[] = Object.freeze([
  {
    series_code: 'CPIAUCSL',
    title: 'Consumer Price Index for All Urban Consumers: All Items in U.S. City Average',
    units: 'Index 1982-1984=100',
    frequency: 'monthly',
    seasonal_adjustment: 'Seasonally Adjusted',
    source: FRED('U.S. Bureau of Labor Statistics'),
    release_lag_days: 20,
    release_lag_basis: 'BLS publishes the CPI between the 10th and the 17th of the following month; 20 days after the month end covers the regular schedule',
    is_cpi: true,
    change_kind: 'level',
  },
  {
    series_code: 'CPILFESL',
    title: 'Consumer Price Index for All Urban Consumers: All Items Less Food and Energy in U.S. City Average',
    units: 'Index 1982-1984=100',
    frequency: 'monthly',
    seasonal_adjustment: 'Seasonally Adjusted',
    source: FRED('U.S. Bureau of Labor Statistics'),
    release_lag_days: 20,
    release_lag_basis: 'released with the headline CPI, between the 10th and the 17th of the following month',
    is_cpi: true,
    change_kind: 'level',
  },
  {
    series_code: 'PCEPILFE',
    title: 'Personal Consumption Expenditures Excluding Food and Energy (Chain-Type Price Index)',
    units: 'Index 2017=100',
    frequency: 'monthly',
    seasonal_adjustment: 'Seasonally Adjusted',
    source: FRED('U.S. Bureau of Economic Analysis'),
    release_lag_days: 35,
    release_lag_basis: 'BEA Personal Income and Outlays, usually in the last week of the following month',
    is_cpi: false,
    change_kind: 'level',
  },
  {
    series_code: 'GDP',
    title: 'Gross Domestic Product',
    units: 'Billions of Dollars, Seasonally Adjusted Annual Rate',
    frequency: 'quarterly',
    seasonal_adjustment: 'Seasonally Adjusted Annual Rate',
    source: FRED('U.S. Bureau of Economic Analysis'),
    release_lag_days: 30,
    release_lag_basis: 'BEA advance estimate about four weeks after the quarter end (the file holds the latest revision, not the advance value)',
    is_cpi: false,
    change_kind: 'level',
  },
  {
    series_code: 'GDPC1',
    title: 'Real Gross Domestic Product',
    units: 'Billions of Chained 2017 Dollars, Seasonally Adjusted Annual Rate',
    frequency: 'quarterly',
    seasonal_adjustment: 'Seasonally Adjusted Annual Rate',
    source: FRED('U.S. Bureau of Economic Analysis'),
    release_lag_days: 30,
    release_lag_basis: 'BEA advance estimate about four weeks after the quarter end (the file holds the latest revision, not the advance value)',
    is_cpi: false,
    change_kind: 'level',
  },
  {
    series_code: 'FEDFUNDS',
    title: 'Federal Funds Effective Rate (monthly average)',
    units: 'Percent',
    frequency: 'monthly',
    seasonal_adjustment: 'Not Seasonally Adjusted',
    source: FRED('Board of Governors of the Federal Reserve System (H.15)'),
    release_lag_days: 3,
    release_lag_basis: 'the monthly average of daily rates is complete on the first business day after the month',
    is_cpi: false,
    change_kind: 'rate',
  },
  {
    series_code: 'DGS2',
    title: 'Market Yield on U.S. Treasury Securities at 2-Year Constant Maturity',
    units: 'Percent',
    frequency: 'daily',
    seasonal_adjustment: 'Not Seasonally Adjusted',
    source: FRED('Board of Governors of the Federal Reserve System (H.15)'),
    release_lag_days: 1,
    release_lag_basis: 'Treasury publishes the par yield curve at the end of the trading day; the H.15 the next business day',
    is_cpi: false,
    change_kind: 'rate',
  },
  {
    series_code: 'DGS10',
    title: 'Market Yield on U.S. Treasury Securities at 10-Year Constant Maturity',
    units: 'Percent',
    frequency: 'daily',
    seasonal_adjustment: 'Not Seasonally Adjusted',
    source: FRED('Board of Governors of the Federal Reserve System (H.15)'),
    release_lag_days: 1,
    release_lag_basis: 'Treasury publishes the par yield curve at the end of the trading day; the H.15 the next business day',
    is_cpi: false,
    change_kind: 'rate',
  },
  {
    series_code: 'T10Y2Y',
    title: '10-Year Treasury Constant Maturity Minus 2-Year Treasury Constant Maturity',
    units: 'Percentage Points',
    frequency: 'daily',
    seasonal_adjustment: 'Not Seasonally Adjusted',
    source: FRED('Federal Reserve Bank of St. Louis, from H.15 yields'),
    release_lag_days: 1,
    release_lag_basis: 'computed from the two daily yields, knowable when they are',
    is_cpi: false,
    change_kind: 'rate',
  },
  {
    series_code: 'UNRATE',
    title: 'Unemployment Rate',
    units: 'Percent',
    frequency: 'monthly',
    seasonal_adjustment: 'Seasonally Adjusted',
    source: FRED('U.S. Bureau of Labor Statistics (Employment Situation)'),
    release_lag_days: 10,
    release_lag_basis: 'BLS Employment Situation, usually the first Friday of the following month (at the latest the 10th)',
    is_cpi: false,
    change_kind: 'rate',
  },
  {
    series_code: 'PAYEMS',
    title: 'All Employees, Total Nonfarm',
    units: 'Thousands of Persons',
    frequency: 'monthly',
    seasonal_adjustment: 'Seasonally Adjusted',
    source: FRED('U.S. Bureau of Labor Statistics (Employment Situation)'),
    release_lag_days: 10,
    release_lag_basis: 'BLS Employment Situation, usually the first Friday of the following month (at the latest the 10th)',
    is_cpi: false,
    change_kind: 'level',
  },
  {
    series_code: 'INDPRO',
    title: 'Industrial Production: Total Index',
    units: 'Index 2017=100',
    frequency: 'monthly',
    seasonal_adjustment: 'Seasonally Adjusted',
    source: FRED('Board of Governors of the Federal Reserve System (G.17)'),
    release_lag_days: 20,
    release_lag_basis: 'Federal Reserve G.17 release around the middle of the following month',
    is_cpi: false,
    change_kind: 'level',
  },
  {
    series_code: 'USREC',
    title: 'NBER based Recession Indicators for the United States (1 = recession month)',
    units: '+1 or 0',
    frequency: 'monthly',
    seasonal_adjustment: 'Not Seasonally Adjusted',
    source: FRED('Federal Reserve Bank of St. Louis, from NBER business cycle dates'),
    release_lag_days: 640,
    release_lag_basis: 'NBER announces peaks and troughs 4 to 21 months after the fact (the March 1991 trough in December 1992); 640 days covers the longest',
    is_cpi: false,
    change_kind: 'rate',
  },
  {
    series_code: 'M2SL',
    title: 'M2 Money Stock',
    units: 'Billions of Dollars',
    frequency: 'monthly',
    seasonal_adjustment: 'Seasonally Adjusted',
    source: FRED('Board of Governors of the Federal Reserve System (H.6)'),
    release_lag_days: 30,
    release_lag_basis: 'Federal Reserve H.6, on the fourth Tuesday of the following month',
    is_cpi: false,
    change_kind: 'level',
  },
]);

const BY_CODE = new Map(MACRO_SERIES.map((s) => [s.series_code, s]));

export const MACRO_SERIES_CODES: readonly string[] = Object.freeze(MACRO_SERIES.map((s) => s.series_code));
export const CPI_SERIES_CODES: readonly string[] = Object.freeze(MACRO_SERIES.filter((s) => s.is_cpi).map((s) => s.series_code));

/** The registered series with this code (exact, upper-case), or undefined. */
export function macroSeries(code: string): MacroSeries | undefined {
  return BY_CODE.get(code);
}
