// The Oracle tab (widgets/oracle/): its table model under QAbstractItemModelTester with the numbers
// test_oracle_scenario.cpp works out by hand for tests/data/oracle/small-cnn.yaml, and the view following the document
// on every edit without a run — the PE counts offered, the headline's best strategy, each limit named where the
// strategy's curve turns dashed, time per iteration, a transformer refused with a sentence, a scenario with problems
// greyed.
//
// small-cnn.yaml at p 4 (α 10 µs, β 1 ns/B): data computes 909.312 ns + 8 · 5.364 / 0.813 ns (the weight updates, at
// the fused optimizer step's measured share of the bandwidth) and communicates 608.064 µs an epoch of 8
// iterations and keeps 32 824 B; channel parallelism is ruled out past C = 3; serial keeps 67 096 B, more than the
// device's 40 000.

#include "document/scenario_document.h"
#include "oracle/oracle_table_model.h"
#include "oracle/oracle_view.h"
#include "scenario_file/scenario_loader.h"
#include "run/simulation_result.h"
#include "style/activity_colors.h"
#include "style/quantity_text.h"

#include "numeric_compare.h"

#include <QAbstractItemModelTester>
#include <QChart>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTest>

using namespace parasight;
using namespace parasight::gui;

namespace {

const QString small_cnn = QStringLiteral(PARASIGHT_SOURCE_DIR "/tests/data/oracle/small-cnn.yaml");

int row_of(const OracleTableModel& model, OracleStrategy strategy) {
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.strategy(row) == strategy) return row;
    }
    return -1;
}

// The labels drawn where a strategy's curve turns dashed: the limits named on the chart.
QStringList limit_labels(const QChart& chart) {
    QStringList labels;
    for (QAbstractSeries* series : chart.series()) {
        auto* scatter = qobject_cast<QScatterSeries*>(series);
        if (scatter != nullptr && scatter->pointLabelsVisible()) labels << scatter->pointLabelsFormat();
    }
    return labels;
}

std::vector<OracleChoice> small_cnn_at_4() {
    const LoadResult loaded = load_scenario_file(small_cnn.toStdString());
    if (!loaded.ok()) qFatal("small-cnn.yaml does not load");
    const auto problem = oracle_problem(*loaded.scenario);
    std::vector<OracleStrategy> strategies;
    for (const auto& entry : oracle_strategy_names) strategies.push_back(entry.value);
    const std::vector<std::int64_t> pes{4};
    return oracle_strong_scaling(*problem, loaded.scenario->value().cluster.topology, pes, strategies)[0].choices;
}

void open(ScenarioDocument& document, const QString& path) {
    Diagnostics problems;
    if (!document.openFile(path, problems)) qFatal("cannot open %s", qPrintable(path));
}

}  // namespace

class TestOracleView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tableModel();
    void viewFollowsTheDocument();
    void timePerIteration();
    void transformerGetsASentence();
    void scenarioWithProblemsIsGreyed();
    void comparisonWithTheSimulation();
};

void TestOracleView::tableModel() {
    OracleTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.show(small_cnn_at_4(), 8.0, false, 40000.0);
    QCOMPARE(model.rowCount(), static_cast<int>(oracle_strategy_names.size()));
    QCOMPARE(model.columnCount(), static_cast<int>(OracleTableModel::column_count));

    const int data = row_of(model, OracleStrategy::data);
    const double compute_s = 909.312e-9 + 8.0 * 5.364e-9 / 0.813;
    PS_COMPARE_RELATIVE(model.value(data, OracleTableModel::compute_column), compute_s, 1e-12);
    PS_COMPARE_RELATIVE(model.value(data, OracleTableModel::communication_column), 608.064e-6, 1e-12);
    PS_COMPARE_RELATIVE(model.value(data, OracleTableModel::time_column), compute_s + 608.064e-6, 1e-12);
    QCOMPARE(model.value(data, OracleTableModel::memory_column), 32824.0);
    QVERIFY(model.fits(data));
    QVERIFY(!model.ruledOut(data));
    QCOMPARE(model.index(data, OracleTableModel::limit_column).data().toString(), QString());
    QCOMPARE(model.headerData(data, Qt::Vertical).toString(), QStringLiteral("data"));
    QCOMPARE(model.headerData(data, Qt::Vertical, Qt::DecorationRole).value<QColor>(),
             oracle_strategy_color(OracleStrategy::data));

    const int spatial = row_of(model, OracleStrategy::spatial);
    QCOMPARE(model.index(spatial, OracleTableModel::pes_column).data().toString(), QStringLiteral("2 × 2"));

    const int channel = row_of(model, OracleStrategy::channel);
    QVERIFY(model.ruledOut(channel));
    QCOMPARE(model.rowLabel(channel), QStringLiteral("channel (ruled out)"));
    QCOMPARE(model.index(channel, OracleTableModel::limit_column).data().toString(), QStringLiteral("p ≤ min C = 3"));
    QVERIFY(model.index(channel, OracleTableModel::compute_column).data(Qt::ToolTipRole).toString().contains(
        QStringLiteral("p = 4 > min C = 3 (conv 0): every PE needs a channel of every layer")));
    // Numbers for PEs a strategy cannot use are greyed; memory past the capacity is red.
    QCOMPARE(model.index(channel, OracleTableModel::compute_column).data(Qt::ForegroundRole).value<QColor>(),
             QColor(Qt::gray));
    const int serial = row_of(model, OracleStrategy::serial);
    QCOMPARE(model.value(serial, OracleTableModel::memory_column), 67096.0);
    QVERIFY(!model.fits(serial));
    QCOMPARE(model.index(serial, OracleTableModel::memory_column).data(Qt::ForegroundRole).value<QColor>(),
             over_capacity_color());

    // Per iteration: an eighth of the epoch.
    model.show(small_cnn_at_4(), 8.0, true, 40000.0);
    PS_COMPARE_RELATIVE(model.value(data, OracleTableModel::time_column), (compute_s + 608.064e-6) / 8.0, 1e-12);
    QCOMPARE(model.headerData(OracleTableModel::time_column, Qt::Horizontal).toString(),
             QStringLiteral("Time per iteration"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestOracleView::viewFollowsTheDocument() {
    ScenarioDocument document;
    open(document, small_cnn);
    OracleView view(document);
    QCOMPARE(view.message(), QString());
    // Powers of two up to 1024; the bars at the cluster's 4 NPUs.
    QCOMPARE(view.peBox()->count(), 11);
    QCOMPARE(view.peBox()->currentText(), QStringLiteral("p = 4"));
    QCOMPARE(view.model()->rowCount(), static_cast<int>(oracle_strategy_names.size()));
    const OracleScalingPoint& at_4 = view.points()[2];
    QVERIFY(at_4.best.has_value());
    const QString best = QString::fromUtf8(name_of(at_4.choices[*at_4.best].strategy, oracle_strategy_names).data());
    QVERIFY2(view.headline()->text().contains(QStringLiteral("Best at p = 4: <b>%1</b>").arg(best)),
             qPrintable(view.headline()->text()));
    // B = 8 stops data parallelism: its curve turns dashed at p = 16 with the limit named there.
    QVERIFY2(limit_labels(*view.scalingChart()).contains(QStringLiteral("p ≤ B = 8")),
             qPrintable(limit_labels(*view.scalingChart()).join(u'|')));
    int dashed_data = 0;
    for (QAbstractSeries* series : view.scalingChart()->series()) {
        auto* line = qobject_cast<QLineSeries*>(series);
        if (line != nullptr && qobject_cast<QScatterSeries*>(series) == nullptr &&
            line->pen().color() == oracle_strategy_color(OracleStrategy::data) &&
            line->pen().style() == Qt::DashLine) {
            ++dashed_data;
            QCOMPARE(line->at(0).x(), 8.0);  // from the last p data runs on
        }
    }
    QCOMPARE(dashed_data, 1);

    // An edit answers at once, no run needed: a batch of 16 moves the limit.
    view.peBox()->setCurrentIndex(4);  // p = 16
    document.edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 16; });
    QVERIFY(limit_labels(*view.scalingChart()).contains(QStringLiteral("p ≤ B = 16")));
    QVERIFY(!limit_labels(*view.scalingChart()).contains(QStringLiteral("p ≤ B = 8")));
    QCOMPARE(view.peBox()->currentText(), QStringLiteral("p = 16"));  // kept across the edit
    QVERIFY(!view.model()->ruledOut(row_of(*view.model(), OracleStrategy::data)));
    view.peBox()->setCurrentIndex(5);  // p = 32
    QVERIFY(view.model()->ruledOut(row_of(*view.model(), OracleStrategy::data)));
    QVERIFY(view.headline()->text().contains(QStringLiteral("more than the cluster's 4 NPUs")));
}

void TestOracleView::timePerIteration() {
    ScenarioDocument document;
    open(document, small_cnn);
    OracleView view(document);
    QVERIFY(view.perBox()->isEnabled());
    QCOMPARE(view.perBox()->currentIndex(), 0);
    const int data = row_of(*view.model(), OracleStrategy::data);
    const double epoch = view.model()->value(data, OracleTableModel::time_column);
    view.perBox()->setCurrentIndex(1);
    PS_COMPARE_RELATIVE(view.model()->value(data, OracleTableModel::time_column), epoch / 8.0, 1e-12);
    // Without the dataset's size an epoch is one batch: only the iteration view, the same numbers.
    view.perBox()->setCurrentIndex(0);
    document.edit(QStringLiteral("samples"), QString(), [](Scenario& s) { s.training.dataset_samples.reset(); });
    QVERIFY(!view.perBox()->isEnabled());
    QCOMPARE(view.perBox()->currentIndex(), 1);
    PS_COMPARE_RELATIVE(view.model()->value(data, OracleTableModel::time_column), epoch / 8.0, 1e-12);
}

void TestOracleView::transformerGetsASentence() {
    ScenarioDocument document;
    open(document, QStringLiteral(PARASIGHT_SOURCE_DIR "/presets/scenarios/pipeline-gpipe.yaml"));
    OracleView view(document);
    QVERIFY2(view.message().startsWith(
                 QStringLiteral("The oracle's closed forms are for CNN models (ParaDL); GPT-2 medium is a "
                                "transformer.")),
             qPrintable(view.message()));
    QCOMPARE(view.model()->rowCount(), 0);
    // The sentence stands alone: no controls for an answer that is not there.
    view.show();
    QVERIFY(!view.peBox()->isVisible());
    QVERIFY(!view.perBox()->isVisible());
    // Opening a CNN brings the oracle back.
    open(document, small_cnn);
    QCOMPARE(view.message(), QString());
    QVERIFY(view.peBox()->isVisible());
    QCOMPARE(view.model()->rowCount(), static_cast<int>(oracle_strategy_names.size()));
}

void TestOracleView::scenarioWithProblemsIsGreyed() {
    ScenarioDocument document;
    open(document, small_cnn);
    OracleView view(document);
    document.edit(QStringLiteral("micro-batch"), QString(), [](Scenario& s) { s.training.micro_batch = 0; });
    QVERIFY(!view.isEnabled());
    // The last answer stays, greyed.
    QCOMPARE(view.model()->rowCount(), static_cast<int>(oracle_strategy_names.size()));
    document.undoStack()->undo();
    QVERIFY(view.isEnabled());
}

// After a run, the oracle's answer for the scenario's own strategy (data over its 4 PEs) beside the simulated one:
// 608.064 µs + 909.312 ns + 8 · 6.598 ns an epoch of 8 iterations is 76.13 µs an iteration; the simulation's figure
// is its report's.
void TestOracleView::comparisonWithTheSimulation() {
    ScenarioDocument document;
    open(document, small_cnn);
    OracleView view(document);
    QVERIFY(view.comparisonLabel()->isHidden());
    const auto scenario = document.validated();
    auto simulation = simulate(*scenario, SimulateOptions{});
    QVERIFY(simulation.has_value());
    const auto result =
        make_result(scenario, std::move(*simulation), PhaseProgress(nullptr, SimulationPhase::analysis));
    QVERIFY(result && result->oracle_comparison.has_value());
    view.showResult(result);
    QVERIFY(!view.comparisonLabel()->isHidden());
    const QString text = view.comparisonLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("this scenario's data on 4 PEs, one iteration: the oracle says 76.13 µs, the "
                                          "simulation %1")
                               .arg(time_text(result->simulation.report.iteration_time_s))),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Largest difference: the collectives")), qPrintable(text));
    view.setResultStale(true);
    QVERIFY(!view.comparisonLabel()->isEnabled());
    view.showNoResult();
    QVERIFY(view.comparisonLabel()->isHidden());
}

QTEST_MAIN(TestOracleView)
#include "test_oracle_view.moc"
