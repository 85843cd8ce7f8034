// The communication table (analysis/collective_table.h), worked out by hand on tests/data/cli/small_pipeline.yaml: a
// 4-layer transformer (h 256, s 256), micro-batches of 2, 4 per pipeline, tp 2 · dp 2 · pp 2 on two 4-NPU switches
// (300 GB/s, 1 us) joined by a switch of 2 (25 GB/s, 5 us); one simulated device per stage, each standing for the
// 4 of its stage. An activation (or its gradient) is s · b · h · 2 B = 256 · 2 · 256 · 2 = 262 144 B.

#include "analysis/collective_table.h"
#include "analysis/identical_devices.h"
#include "collective/group_collective.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QFile>
#include <QtTest>

using namespace parasight;

namespace {

const CollectiveRow* row_named(const std::vector<CollectiveRow>& rows, const std::string& operation) {
    for (const CollectiveRow& row : rows) {
        if (row.operation == operation) return &row;
    }
    return nullptr;
}

}  // namespace

class TestCollectiveTable : public QObject {
    Q_OBJECT
private slots:
    void aRowPerKindOfCall();
    void identicalDevicesAreReadOnce();
    void methodTextNamesEachDimension();
    void parallelBlocksHalveTheTensorParallelCalls_data();
    void parallelBlocksHalveTheTensorParallelCalls();
};

void TestCollectiveTable::aRowPerKindOfCall() {
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    QVERIFY(loaded.ok());
    const auto simulation = simulate(*loaded.scenario, SimulateOptions{});
    QVERIFY(simulation.has_value());
    const std::vector<CollectiveRow> rows = collective_table(*simulation->timeline);

    // Megatron's tp all-reduces: 2 in forward and 2 in backward per layer and micro-batch, on each stage's 2 layers
    // and 4 micro-batches: 32 per device, one activation each, between 2 ranks.
    const CollectiveRow* tp = row_named(rows, "tp all-reduce");
    QVERIFY(tp != nullptr);
    QCOMPARE(tp->group, CommGroup::tp);
    QCOMPARE(tp->calls_per_device, 32.0);
    QCOMPARE(tp->bytes_per_call, 262144.0);
    QCOMPARE(tp->ranks, std::int64_t{2});
    // algbw is bytes over the time a call took as it ran; a call takes at least its hop and its bytes at 300 GB/s.
    QVERIFY(tp->time_per_call_s >= 1e-6 + 262144.0 / 300e9);
    QCOMPARE(tp->algbw_Bps, tp->bytes_per_call / tp->time_per_call_s);
    // nccl-tests' bus bandwidth of an all-reduce of n = 2: algbw × 2(n − 1)/n = algbw × 1.
    QCOMPARE(tp->busbw_Bps, tp->algbw_Bps);

    // Stage 0 sends each micro-batch's activations forward, stage 1 each gradient back: 4 calls on one of the two
    // stages, 2 per device on average (the devices of each stage counted alike); a send's busbw is its algbw.
    for (const char* send : {"pp send activations", "pp send gradients"}) {
        const CollectiveRow* pp = row_named(rows, send);
        QVERIFY2(pp != nullptr, send);
        QCOMPARE(pp->group, CommGroup::pp);
        QCOMPARE(pp->calls_per_device, 2.0);
        QCOMPARE(pp->bytes_per_call, 262144.0);
        QCOMPARE(pp->busbw_Bps, pp->algbw_Bps);
        QVERIFY(pp->time_per_call_s >= 5e-6 + 262144.0 / 25e9);  // across the slow switch
    }
    // How each ran: what the collective model chose for the tp pair (2 neighbouring NPUs of the first switch, one
    // dimension, so no "dim" prefix; NCCL's choice, as the switch leaves it to NCCL); a send has no algorithm.
    const DimensionSpan pair{0, 1, 2};
    const CollectiveCost chosen = group_collective(CollectiveOp::all_reduce, 262144.0,
                                                   loaded.scenario->value().topology(), std::span(&pair, 1),
                                                   CollectivePlan{});
    QCOMPARE(chosen.per_dim.size(), std::size_t{1});
    QCOMPARE(tp->method, std::string(to_string(chosen.per_dim[0].algorithm)) + " · " +
                             std::string(to_string(chosen.per_dim[0].protocol)));
    QCOMPARE(row_named(rows, "pp send activations")->method, std::string("point to point"));
    // Sorted by group: tp's rows before pp's, pp's before dp's.
    for (std::size_t i = 1; i < rows.size(); ++i) QVERIFY(rows[i - 1].group <= rows[i].group);
}

// Every device simulated: reading one device per class of identical devices gives what reading all 8 does.
void TestCollectiveTable::identicalDevicesAreReadOnce() {
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    QVERIFY(loaded.ok());
    SimulateOptions options;
    options.all_devices = true;
    const auto every = simulate(*loaded.scenario, options);
    QVERIFY(every.has_value());
    const IdenticalDevices classes = IdenticalDevices::of(*every->timeline);
    const std::vector<CollectiveRow> all = collective_table(*every->timeline);
    const std::vector<CollectiveRow> once = collective_table(*every->timeline, &classes);
    QCOMPARE(once.size(), all.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        QCOMPARE(once[i].operation, all[i].operation);
        QVERIFY(qFuzzyCompare(once[i].calls_per_device, all[i].calls_per_device));
        QVERIFY(qFuzzyCompare(once[i].busbw_Bps, all[i].busbw_Bps));
    }
    QCOMPARE(row_named(once, "tp all-reduce")->calls_per_device, 32.0);
}

// model.parallel_blocks: attention and MLP add their partial outputs before one collective forward, and their input
// gradients before one backward — per layer and micro-batch one call each way where sequential blocks make two.
// small_pipeline: 2 layers a stage, 4 micro-batches. Megatron's all-reduce: 2 · 2 · 4 = 16 (sequential 32). With
// sequence parallelism an all-gather before and a reduce-scatter after, forward and mirrored backward: 16 of each
// (32); with tp_overlap backward the input gathered again for the weight gradients once a layer: 8 (16).
void TestCollectiveTable::parallelBlocksHalveTheTensorParallelCalls_data() {
    QTest::addColumn<QString>("parallelism");
    QTest::addColumn<QStringList>("operations");
    QTest::addColumn<QList<double>>("calls");
    QTest::newRow("all-reduce") << QString() << QStringList{QStringLiteral("tp all-reduce")} << QList<double>{16.0};
    QTest::newRow("sequence parallel")
        << QStringLiteral(", sequence_parallel: true, tp_overlap: backward")
        << QStringList{QStringLiteral("tp all-gather"), QStringLiteral("tp reduce-scatter"),
                       QStringLiteral("tp all-gather input again")}
        << QList<double>{16.0, 16.0, 8.0};
}

void TestCollectiveTable::parallelBlocksHalveTheTensorParallelCalls() {
    QFETCH(QString, parallelism);
    QFETCH(QStringList, operations);
    QFETCH(QList<double>, calls);
    QFile file(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    std::string text = file.readAll().toStdString();
    const auto replace = [&](const std::string& from, const std::string& to) {
        const std::size_t at = text.find(from);
        QVERIFY(at != std::string::npos);
        text.replace(at, from.size(), to);
    };
    replace("vocab: 1024}", "vocab: 1024, parallel_blocks: true}");
    replace("mapping: [tp, dp, pp]}", "mapping: [tp, dp, pp]" + parallelism.toStdString() + "}");
    const LoadResult loaded = load_scenario_text(text, "small_pipeline.yaml");
    QVERIFY(loaded.ok());
    const auto simulation = simulate(*loaded.scenario, SimulateOptions{});
    QVERIFY(simulation.has_value());
    const std::vector<CollectiveRow> rows = collective_table(*simulation->timeline);
    for (qsizetype i = 0; i < operations.size(); ++i) {
        const CollectiveRow* row = row_named(rows, operations[i].toStdString());
        QVERIFY2(row != nullptr, qPrintable(operations[i]));
        QCOMPARE(row->calls_per_device, calls[i]);
    }
}

// A shape on several dimensions names each dimension's algorithm and protocol.
void TestCollectiveTable::methodTextNamesEachDimension() {
    TransferShape shape;
    shape.op = CollectiveOp::all_reduce;
    shape.methods = {{0, CollectiveAlgorithm::ring, CollectiveProtocol::ll128},
                     {1, CollectiveAlgorithm::double_binary_tree, CollectiveProtocol::simple}};
    QCOMPARE(method_text(shape), std::string("dim 0 ring · LL128, dim 1 double_binary_tree · Simple"));
}

QTEST_GUILESS_MAIN(TestCollectiveTable)
#include "test_collective_table.moc"
