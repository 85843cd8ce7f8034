// Targets as text (target/target.h): every kind read and written back the same, and every mistake a lesson's author
// can make said with what would be right.

#include "target/target.h"

#include <QtTest>

using namespace parasight;

class TestTarget : public QObject {
    Q_OBJECT
private slots:
    void everyKindReadsAndWritesBack_data();
    void everyKindReadsAndWritesBack();
    void mistakesSayWhatWouldBeRight_data();
    void mistakesSayWhatWouldBeRight();
};

void TestTarget::everyKindReadsAndWritesBack_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("npu");
    QTest::addColumn<double>("fromS");
    QTest::addColumn<double>("toS");
    QTest::newRow("tab") << "tab:timeline" << int(TargetKind::tab) << "timeline" << qint64(-1) << 0.0 << 0.0;
    QTest::newRow("field") << "field:cluster.topology[1].bandwidth" << int(TargetKind::field)
                           << "cluster.topology[1].bandwidth" << qint64(-1) << 0.0 << 0.0;
    QTest::newRow("node") << "node:layer[5].attention.qkv" << int(TargetKind::strategy_node)
                          << "layer[5].attention.qkv" << qint64(-1) << 0.0 << 0.0;
    QTest::newRow("npu") << "npu:17" << int(TargetKind::npu) << "" << qint64(17) << 0.0 << 0.0;
    QTest::newRow("group") << "group:tp@5" << int(TargetKind::group) << "tp" << qint64(5) << 0.0 << 0.0;
    QTest::newRow("device") << "device:3@breakdown" << int(TargetKind::device) << "breakdown" << qint64(3) << 0.0
                            << 0.0;
    // A search keeps its spaces and its colons.
    QTest::newRow("events") << "events:layer 3 backward: tp" << int(TargetKind::events) << "layer 3 backward: tp"
                            << qint64(-1) << 0.0 << 0.0;
    // 1.5 ms = 0.0015 s, 2.5 ms = 0.0025 s.
    QTest::newRow("time") << "time:1.5 ms..2.5 ms" << int(TargetKind::time_range) << "" << qint64(-1) << 0.0015
                          << 0.0025;
    QTest::newRow("memory") << "memory:activations" << int(TargetKind::memory_category) << "activations" << qint64(-1)
                            << 0.0 << 0.0;
    QTest::newRow("oracle") << "oracle:data+filter@64" << int(TargetKind::oracle_strategy) << "data+filter"
                            << qint64(-1) << 0.0 << 0.0;
}

void TestTarget::everyKindReadsAndWritesBack() {
    QFETCH(QString, text);
    QFETCH(int, kind);
    QFETCH(QString, name);
    QFETCH(qint64, npu);
    QFETCH(double, fromS);
    QFETCH(double, toS);
    const Expected<Target> target = parse_target(text.toStdString());
    QVERIFY2(target, target ? "" : target.error().c_str());
    QCOMPARE(int(target.value().kind), kind);
    QCOMPARE(QString::fromStdString(target.value().name), name);
    QCOMPARE(qint64(target.value().npu), npu);
    QCOMPARE(target.value().from_s, fromS);
    QCOMPARE(target.value().to_s, toS);
    if (target.value().kind == TargetKind::oracle_strategy) QCOMPARE(target.value().pes, std::int64_t{64});
    const Expected<Target> again = parse_target(target_text(target.value()));
    QVERIFY2(again, again ? "" : again.error().c_str());
    QVERIFY(again.value() == target.value());
}

void TestTarget::mistakesSayWhatWouldBeRight_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("no kind") << "timeline"
                             << "a target is written KIND:WHAT (tab:timeline, field:training.global_batch, npu:5, …), "
                                "not 'timeline'";
    QTest::newRow("unknown kind") << "tabb:timeline"
                                  << "unknown kind of target 'tabb' (did you mean 'tab'?); it is tab, field, node, "
                                     "npu, group, device, events, time, memory or oracle";
    QTest::newRow("nothing named") << "field:" << "say which field after 'field:'";
    QTest::newRow("unknown tab") << "tab:timelin"
                                 << "unknown tab 'timelin' (did you mean 'timeline'?); it is topology, strategy, "
                                    "timeline, breakdown, memory, oracle, whatif, sweeps or history";
    QTest::newRow("not a node") << "node:stage 2"
                                << "'stage 2' is not a strategy-tree node: write stage[i], layer[j], "
                                   "layer[j].attention, layer[j].mlp or an operation such as layer[j].attention.qkv";
    QTest::newRow("negative NPU") << "npu:-1" << "an NPU is a whole number from 0, not '-1'";
    QTest::newRow("group without NPU") << "group:tp" << "write the NPU after '@', as in group:tp@5";
    QTest::newRow("unknown group") << "group:tq@5"
                                   << "unknown group 'tq' (did you mean 'tp'?); it is tp, cp, ep, pp or dp";
    QTest::newRow("device in a view without rows")
        << "device:3@oracle"
        << "unknown view with a row per device 'oracle'; it is timeline, breakdown or memory";
    QTest::newRow("time backwards") << "time:2 ms..1 ms" << "a stretch of time ends after it starts";
    QTest::newRow("time without a unit") << "time:1..2 ms"
                                         << "from: '1' has no unit; expected a time with a unit, e.g. '1.5 us' "
                                            "(units: ns, us, ms, s)";
    QTest::newRow("oracle without PEs") << "oracle:data" << "write the PE count after '@', as in oracle:data+filter@64";
    QTest::newRow("unknown strategy") << "oracle:date@4"
                                      << "unknown oracle strategy 'date' (did you mean 'data'?); it is serial, data, "
                                         "spatial, layer, filter, channel, data+filter, data+spatial or data+layer";
    QTest::newRow("no PEs") << "oracle:data@0" << "a PE count is a whole number from 1, not '0'";
    QTest::newRow("unknown category") << "memory:activation"
                                      << "unknown memory category 'activation' (did you mean 'activations'?); it is "
                                         "weights, gradients, optimizer, activations, buffers or runtime";
}

void TestTarget::mistakesSayWhatWouldBeRight() {
    QFETCH(QString, text);
    QFETCH(QString, error);
    const Expected<Target> target = parse_target(text.toStdString());
    QVERIFY(!target);
    QCOMPARE(QString::fromStdString(target.error()), error);
}

QTEST_APPLESS_MAIN(TestTarget)
#include "test_target.moc"
