// The Strategy tab (docs/gui.md): the strategy-tree model under QAbstractItemModelTester; explicit values bold and
// inherited ones grey with their source; edits and resets writing the strategy_tree entries a file would hold, each
// undoable; a drag on the stage bar moving exactly one layer; the loader's reason marked on the node it is about.
//
// tests/data/cli/small_pipeline.yaml: a 4-layer transformer, tp 2 · dp 2 · pp 2, so 2 stages of 2 layers; 16
// sequences in micro-batches of 2 over dp 2: 16 / (2 · 2) = 4 micro-batches per stage; no recompute.

#include "small_pipeline_document.h"

#include "document/scenario_document.h"
#include "strategy/stage_bar.h"
#include "strategy/strategy_page.h"
#include "strategy/strategy_tree_model.h"
#include "simulation/simulate.h"
#include "style/quantity_text.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QTest>
#include <QTreeView>

using namespace parasight;
using namespace parasight::gui;
using parasight::testing::open_small_pipeline;
using parasight::testing::simulated_result;

namespace {

bool bold(const QModelIndex& index) { return index.data(Qt::FontRole).value<QFont>().bold(); }

}  // namespace

class TestStrategyPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theModelPassesTheTester();
    void theTreeHasTheModelsStructure();
    void interleavedStagesNameTheirLayerRuns_data();
    void interleavedStagesNameTheirLayerRuns();
    void explicitAndInheritedValues();
    void editsWriteTheOverridesAndUndo();
    void dragsOnTheStageBarMoveLayers();
    void aProblemIsMarkedOnItsNode();
    void aRunFillsTheTimeColumns();
};

void TestStrategyPage::theModelPassesTheTester() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    StrategyTreeModel model(document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Through a reset (pp 2 → 4 changes the shape), a value change and an invalid edit.
    document.edit(QStringLiteral("pp"), QString(), [](Scenario& s) {
        s.parallelism.pp = 4;
        s.parallelism.dp = 1;
    });
    QVERIFY(document.validated() != nullptr);
    QVERIFY(model.tree() != nullptr);
    QCOMPARE(model.tree()->stage_count(), 4);
    document.edit(QStringLiteral("recompute"), QString(), [](Scenario& s) { s.parallelism.recompute = Recompute::full; });
    document.edit(QStringLiteral("bad"), QString(), [](Scenario& s) { s.parallelism.pp = 3; });
    QVERIFY(document.validated() == nullptr);
    QVERIFY(model.tree() != nullptr);
    QCOMPARE(model.tree()->stage_count(), 4);  // the last valid tree stays
}

void TestStrategyPage::interleavedStagesNameTheirLayerRuns_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("virtual_stages");
    QTest::addColumn<int>("stage");
    QTest::addColumn<QString>("label");
    // The small pipeline's 4 layers on pp 2 with 2 virtual stages: chunk c of stage s is model chunk 2c + s, one layer
    // each, so stage 0 runs layers 0 and 2.
    const QString small = QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    QTest::newRow("small, one chunk") << small << 1 << 1 << QStringLiteral("stage[1] · layers 2–3");
    QTest::newRow("small, 2 chunks") << small << 2 << 0 << QStringLiteral("stage[0] · layers 0, 2");
    // Llama 3 405B: 16 stages × 8 one-layer chunks, stage 0's first holding no layer: stage 0 runs layers 15, 31, …,
    // 111 (seven runs: the first two, then the last); stage 1 runs 0, 16, …, 112.
    const QString llama = QStringLiteral(PARASIGHT_SOURCE_DIR "/presets/scenarios/llama3-405b-16k.yaml");
    QTest::newRow("llama stage 0") << llama << 8 << 0 << QStringLiteral("stage[0] · layers 15, 31, …, 111");
    QTest::newRow("llama stage 1") << llama << 8 << 1 << QStringLiteral("stage[1] · layers 0, 16, …, 112");
}

void TestStrategyPage::interleavedStagesNameTheirLayerRuns() {
    QFETCH(QString, file);
    QFETCH(int, virtual_stages);
    QFETCH(int, stage);
    QFETCH(QString, label);
    ScenarioDocument document;
    parasight::Diagnostics problems;
    QVERIFY(document.openFile(file, problems));
    if (virtual_stages > 1 && document.validated()->value().parallelism.virtual_stages != virtual_stages) {
        document.edit(QStringLiteral("interleave"), QString(), [&](Scenario& s) {
            s.parallelism.schedule = parasight::Schedule::interleaved;
            s.parallelism.virtual_stages = virtual_stages;
        });
    }
    QVERIFY(document.validated() != nullptr);
    StrategyTreeModel model(document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.index(stage, 0, model.index(0, 0)).data().toString(), label);
}

void TestStrategyPage::theTreeHasTheModelsStructure() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    StrategyTreeModel model(document);
    // One root; 2 stages; stage 0 holds layers 0 and 1; a layer its attention and MLP blocks.
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex root = model.index(0, 0);
    QCOMPARE(root.data().toString(), QStringLiteral("model · layers 0–3"));
    QCOMPARE(model.rowCount(root), 2);
    const QModelIndex stage1 = model.index(1, 0, root);
    QCOMPARE(stage1.data().toString(), QStringLiteral("stage[1] · layers 2–3"));
    QCOMPARE(model.rowCount(stage1), 2);
    const QModelIndex layer2 = model.index(0, 0, stage1);
    QCOMPARE(layer2.data().toString(), QStringLiteral("layer[2]"));
    QCOMPARE(model.rowCount(layer2), 2);
    QCOMPARE(model.index(0, 0, layer2).data().toString(), QStringLiteral("attention"));
    QCOMPARE(model.index(1, 0, layer2).data().toString(), QStringLiteral("mlp"));
    QVERIFY(model.rowCount(model.index(0, 0, layer2)) > 3);  // the attention block's operations
    // Columns: a stage's 2 layers and 4 micro-batches; recompute none.
    QCOMPARE(model.index(1, StrategyTreeModel::layers_column, root).data().toInt(), 2);
    QCOMPARE(model.index(1, StrategyTreeModel::micro_batches_column, root).data().toInt(), 4);
    QCOMPARE(model.index(1, StrategyTreeModel::recompute_column, root).data().toString(), QStringLiteral("none"));
    QCOMPARE(model.index(1, StrategyTreeModel::max_ongoing_column, root).data().toString(),
             QStringLiteral("schedule's own"));
    // Layers and micro-batches only on stages.
    QVERIFY(!(model.flags(model.index(0, StrategyTreeModel::layers_column, stage1)) & Qt::ItemIsEditable));
    QVERIFY(model.flags(model.index(1, StrategyTreeModel::layers_column, root)) & Qt::ItemIsEditable);
    QVERIFY(model.flags(model.index(0, StrategyTreeModel::recompute_column, layer2)) & Qt::ItemIsEditable);
}

void TestStrategyPage::explicitAndInheritedValues() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    // layer[2] recomputes in full; its blocks inherit that, stage 1 does not.
    document.edit(QStringLiteral("override"), QString(), [](Scenario& s) {
        StrategyOverride entry;
        entry.node = "layer[2]";
        entry.recompute = Recompute::full;
        s.strategy_tree.push_back(entry);
    });
    QVERIFY(document.validated() != nullptr);
    StrategyTreeModel model(document);
    const QModelIndex stage1 = model.index(1, 0, model.index(0, 0));
    const QModelIndex layer2 = model.index(0, StrategyTreeModel::recompute_column, stage1);
    QCOMPARE(layer2.data().toString(), QStringLiteral("full"));
    QVERIFY(bold(layer2));
    QVERIFY(model.isExplicit(layer2));
    const QModelIndex mlp = model.index(1, StrategyTreeModel::recompute_column, model.index(0, 0, stage1));
    QCOMPARE(mlp.data().toString(), QStringLiteral("full"));
    QVERIFY(!bold(mlp));
    QCOMPARE(mlp.data(Qt::ToolTipRole).toString(), QStringLiteral("Inherited from layer[2]"));
    const QModelIndex stage_recompute = model.index(1, StrategyTreeModel::recompute_column, model.index(0, 0));
    QCOMPARE(stage_recompute.data().toString(), QStringLiteral("none"));
    QCOMPARE(stage_recompute.data(Qt::ToolTipRole).toString(), QStringLiteral("Inherited from the global parallelism"));
    QVERIFY(!model.isExplicit(stage_recompute));
}

void TestStrategyPage::editsWriteTheOverridesAndUndo() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    StrategyTreeModel model(document);
    QVERIFY(document.scenario().strategy_tree.empty());
    const QModelIndex root = model.index(0, 0);
    // Stage 0 keeps 1 micro-batch in flight: an entry {node: stage[0], max_ongoing_micro_batches: 1}.
    QVERIFY(model.setData(model.index(0, StrategyTreeModel::max_ongoing_column, root), 1));
    QCOMPARE(document.scenario().strategy_tree.size(), std::size_t{1});
    QCOMPARE(document.scenario().strategy_tree[0].node, std::string("stage[0]"));
    QCOMPARE(document.scenario().strategy_tree[0].max_ongoing_micro_batches, std::optional<int>(1));
    QVERIFY(bold(model.index(0, StrategyTreeModel::max_ongoing_column, model.index(0, 0))));
    // Selective recompute on layer[1]'s attention block.
    const QModelIndex attention = model.index(0, StrategyTreeModel::recompute_column,
                                              model.index(1, 0, model.index(0, 0, model.index(0, 0))));
    QVERIFY(model.setData(attention, QStringLiteral("selective")));
    QCOMPARE(document.scenario().strategy_tree.size(), std::size_t{2});
    QCOMPARE(document.scenario().strategy_tree[1].node, std::string("layer[1].attention"));
    QCOMPARE(document.scenario().strategy_tree[1].recompute, std::optional<Recompute>(Recompute::selective));
    // The root's recompute is parallelism.recompute.
    QVERIFY(model.setData(model.index(0, StrategyTreeModel::recompute_column), QStringLiteral("full")));
    QCOMPARE(document.scenario().parallelism.recompute, Recompute::full);
    QCOMPARE(document.scenario().strategy_tree.size(), std::size_t{2});
    // Reset to inherited drops stage[0]'s entry, which then sets nothing.
    QVERIFY(model.resetToInherited(model.index(0, StrategyTreeModel::max_ongoing_column, model.index(0, 0))));
    QCOMPARE(document.scenario().strategy_tree.size(), std::size_t{1});
    QCOMPARE(document.scenario().strategy_tree[0].node, std::string("layer[1].attention"));
    QVERIFY(!model.resetToInherited(model.index(0, StrategyTreeModel::recompute_column)));  // the root's cannot
    // Four edits, four undo steps.
    QCOMPARE(document.undoStack()->count(), 4);
    for (int i = 0; i < 4; ++i) document.undoStack()->undo();
    QVERIFY(document.scenario().strategy_tree.empty());
    QCOMPARE(document.scenario().parallelism.recompute, Recompute::none);
}

void TestStrategyPage::dragsOnTheStageBarMoveLayers() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    StrategyPage page(document);
    page.resize(900, 500);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    StageBar* bar = page.stageBar();
    QCOMPARE(bar->layers(), (std::vector<int>{2, 2}));
    // From stage 0 onto stage 1: stage 0 gives one of its 2 layers, both counts written.
    QTest::mousePress(bar, Qt::LeftButton, {}, bar->centerOf(0));
    QTest::mouseMove(bar, bar->centerOf(1));
    QTest::mouseRelease(bar, Qt::LeftButton, {}, bar->centerOf(1));
    QCOMPARE(bar->layers(), (std::vector<int>{1, 3}));
    const auto& entries = document.scenario().strategy_tree;
    QCOMPARE(entries.size(), std::size_t{2});
    QCOMPARE(entries[0].node, std::string("stage[0]"));
    QCOMPARE(entries[0].layers, std::optional<int>(1));
    QCOMPARE(entries[1].node, std::string("stage[1]"));
    QCOMPARE(entries[1].layers, std::optional<int>(3));
    QVERIFY(document.validated() != nullptr);
    QCOMPARE(document.undoStack()->count(), 1);
    // Stage 0 has one layer left: a stage keeps at least one, so another drag from it does nothing.
    QTest::mousePress(bar, Qt::LeftButton, {}, bar->centerOf(0));
    QTest::mouseRelease(bar, Qt::LeftButton, {}, bar->centerOf(1));
    QCOMPARE(bar->layers(), (std::vector<int>{1, 3}));
    QCOMPARE(document.undoStack()->count(), 1);
    // A press and release on the same stage moves nothing either.
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->centerOf(1));
    QCOMPARE(document.undoStack()->count(), 1);
    document.undoStack()->undo();
    QCOMPARE(bar->layers(), (std::vector<int>{2, 2}));
    // The border between the stages dragged right by 1.4 layer widths: one layer (1.4 rounds to 1) of stage 1
    // joins stage 0; dragged left by 2.6 widths from there, stage 0 could give 3 but keeps one: 2 move.
    const QPoint border = bar->borderOf(0);
    const QPoint right = border + QPoint(static_cast<int>(1.4 * bar->layerWidth()), 0);
    QTest::mousePress(bar, Qt::LeftButton, {}, border);
    QTest::mouseMove(bar, right);
    QTest::mouseRelease(bar, Qt::LeftButton, {}, right);
    QCOMPARE(bar->layers(), (std::vector<int>{3, 1}));
    const QPoint moved = bar->borderOf(0);
    const QPoint left = moved - QPoint(static_cast<int>(2.6 * bar->layerWidth()), 0);
    QTest::mousePress(bar, Qt::LeftButton, {}, moved);
    QTest::mouseRelease(bar, Qt::LeftButton, {}, left);
    QCOMPARE(bar->layers(), (std::vector<int>{1, 3}));
    QCOMPARE(document.undoStack()->count(), 2);
}

void TestStrategyPage::aProblemIsMarkedOnItsNode() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    StrategyPage page(document);
    StrategyTreeModel& model = *page.model();
    // Micro-batches on stage[1] other than the iteration's 4: the loader refuses it, on that node.
    QVERIFY(model.setData(model.index(1, StrategyTreeModel::micro_batches_column, model.index(0, 0)), 3));
    QVERIFY(document.validated() == nullptr);
    const StrategyTree* tree = model.tree();  // the last valid one
    QVERIFY(tree != nullptr);
    const int stage1 = tree->stage(1);
    QVERIFY2(model.problemOf(stage1).contains(QStringLiteral("every pipeline stage runs the iteration's 4 micro-batches")),
             qPrintable(model.problemOf(stage1)));
    QCOMPARE(model.problemOf(tree->stage(0)), QString());
    QVERIFY(page.problemText().contains(QStringLiteral("strategy_tree[0]")));
    document.undoStack()->undo();
    QCOMPARE(model.problemOf(stage1), QString());
    QCOMPARE(page.problemText(), QString());
}

void TestStrategyPage::aRunFillsTheTimeColumns() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    StrategyPage page(document);
    const auto result = simulated_result(document);
    QVERIFY(result != nullptr);
    page.showResult(result);
    StrategyTreeModel& model = *page.model();
    // layer[2] (stage 1's first) and its attention block: their forward and backward as layer_times gives them.
    const QModelIndex stage1 = model.index(1, 0, model.index(0, 0));
    const LayerTimes& t = result->layer_times[2];
    QCOMPARE(model.index(0, StrategyTreeModel::forward_column, stage1).data().toString(), time_text(t.layer.forward_s));
    QCOMPARE(model.index(0, StrategyTreeModel::backward_column, stage1).data().toString(), time_text(t.layer.backward_s));
    const QModelIndex layer2 = model.index(0, 0, stage1);
    QCOMPARE(model.index(0, StrategyTreeModel::forward_column, layer2).data().toString(),
             time_text(t.attention.forward_s));
    // The stage: its layers' sum, and its device's computation (compute and local memory) and peak memory from the
    // report.
    const LayerTimes& u = result->layer_times[3];
    QCOMPARE(model.index(1, StrategyTreeModel::forward_column, model.index(0, 0)).data().toString(),
             time_text(t.layer.forward_s + u.layer.forward_s));
    const DeviceReport& npu4 = result->simulation.report.per_device.at(1);
    QCOMPARE(npu4.stage, 1);
    QCOMPARE(model.index(1, StrategyTreeModel::compute_column, model.index(0, 0)).data().toString(),
             time_text(npu4.breakdown.compute_s + npu4.breakdown.exposed_local_memory_s));
    QCOMPARE(model.index(1, StrategyTreeModel::memory_column, model.index(0, 0)).data().toString(),
             bytes_text(npu4.peak_memory_bytes));
    // Operations have no time of their own in the run (the simulation times blocks).
    QCOMPARE(model.index(0, StrategyTreeModel::forward_column, model.index(0, 0, layer2)).data(), QVariant());
}

QTEST_MAIN(TestStrategyPage)
#include "test_strategy_page.moc"
