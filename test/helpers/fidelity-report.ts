import { connect } from '../../db/client.ts';
import { markedBy, measureFirstOrLatest, measureQuarterCoherence } from './coherence-measures.ts';
import { loadCorpus, measureAlerts, measureDerivedOverReported, measureFrames, measureFsds, measureLineMoves, measureNeverNegativeDerivations, measureMisdatedYearToDate, measureQ4, measureRestatedQuarters, measureSplitRecasts, measureUntaggedSplits, measureWorkingCapitalSigns, measureYearToDateSigns, measureNetChangeBeforeFx, measureResidualRevenue, measureEquityComponentTotals } from './fidelity-measures.ts';

/** Prints the fidelity measures of one ingested database: `tsx test/helpers/fidelity-report.ts <database url>`. */
const sql = connect(process.argv[2] ?? process.env.DATABASE_URL!);
try {
  const corpus = await loadCorpus(sql);
  const report = {
    alerts: await measureAlerts(sql, corpus),
    restated_quarters: measureRestatedQuarters(corpus),
    q4: measureQ4(corpus),
    frames: measureFrames(corpus),
    fsds: measureFsds(corpus),
    split_recasts: await measureSplitRecasts(sql, corpus).then((m) => ({ ...m, splits: Object.fromEntries(m.splits) })),
    misdated_year_to_date: measureMisdatedYearToDate(corpus),
    derived_over_reported: await measureDerivedOverReported(sql),
    working_capital_signs: measureWorkingCapitalSigns(corpus),
    untagged_splits: await measureUntaggedSplits(sql, corpus),
    line_moves: await measureLineMoves(sql, corpus),
    never_negative_derivations: measureNeverNegativeDerivations(corpus),
    year_to_date_signs: await measureYearToDateSigns(sql, corpus),
    net_change_before_fx: measureNetChangeBeforeFx(corpus),
    residual_revenue: measureResidualRevenue(corpus),
    equity_component_totals: measureEquityComponentTotals(corpus),
    quarter_coherence: measureQuarterCoherence(corpus, markedBy(corpus)),
    first_or_latest: measureFirstOrLatest(corpus),
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  await sql.end();
}
