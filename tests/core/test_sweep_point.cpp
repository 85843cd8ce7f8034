// A sweep point (sweep/sweep_point.h): the base scenario with its axes' values set at their paths, read back by the
// loader. On tests/data/cli/small_pipeline.yaml (tp 2 · dp 2 · pp 2 on two 4-NPU switches of 300 GB/s joined by a
// switch of 2 at 25 GB/s).

#include "scenario_file/scenario_writer.h"
#include "sweep/sweep_point.h"

#include <QtTest>

using namespace parasight;

namespace {

std::string base_yaml() {
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    return loaded.ok() ? write_scenario_yaml(loaded.scenario->value()) : std::string();
}

}  // namespace

class TestSweepPoint : public QObject {
    Q_OBJECT
private slots:
    void valuesLandAtTheirPaths();
    void aPointThatIsNoScenarioSaysWhy_data();
    void aPointThatIsNoScenarioSaysWhy();
    void everyScalarAnAxisCanSet();
    void keysWrittenOnlyWhenSetCanBeSet();
};

void TestSweepPoint::valuesLandAtTheirPaths() {
    const std::string base = base_yaml();
    QVERIFY(!base.empty());
    // tp 4 · dp 1 · pp 2 = 8 still; the outer switch at 100 GB/s; 1F1B → GPipe.
    const std::vector<AxisValue> point{{"parallelism.tp", "4"},
                                       {"parallelism.dp", "1"},
                                       {"cluster.topology[1].bandwidth", "100 GB/s"},
                                       {"parallelism.schedule", "gpipe"}};
    const LoadResult loaded = scenario_at(base, point, "point 1");
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.diagnostics.front().to_string().c_str());
    const Scenario& scenario = loaded.scenario->value();
    QCOMPARE(scenario.parallelism.tp, 4);
    QCOMPARE(scenario.parallelism.dp, 1);
    QCOMPARE(scenario.cluster.topology[1].bandwidth_Bps, 100e9);
    QCOMPARE(scenario.cluster.topology[0].bandwidth_Bps, 300e9);  // the other dimension as it was
    QCOMPARE(scenario.parallelism.schedule, Schedule::gpipe);
    QCOMPARE(scenario.cluster.topology.size(), std::size_t{2});
    // The base is unchanged: the next point starts from it again.
    const LoadResult again = scenario_at(base, {}, "point 0");
    QVERIFY(again.ok());
    QCOMPARE(again.scenario->value().parallelism.tp, 2);
}

void TestSweepPoint::aPointThatIsNoScenarioSaysWhy_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");  // a part of the first diagnostic
    // tp 4 · dp 2 · pp 2 = 16 on 8 NPUs: the loader's cross-check.
    QTest::newRow("degrees that do not fit") << "parallelism.tp" << "4"
                                             << "the parallel degrees multiply to 16 (tp=4 x dp=2 x pp=2)";
    QTest::newRow("a value the loader refuses") << "training.micro_batch" << "0"
                                                << "training.micro_batch must be between 1 and 10000000, not 0";
    QTest::newRow("a wrong unit") << "cluster.topology[0].bandwidth" << "300 GB"
                                  << "'GB' is a unit of a size, not of a bandwidth";
    QTest::newRow("an unknown key") << "parallelism.tpp" << "2" << "unknown key 'tpp' in parallelism (did you mean 'tp'?)";
    QTest::newRow("an index past the list") << "cluster.topology[5].size" << "2"
                                            << "cluster.topology[5].size: 'topology' has 2 entries; there is no [5]";
    QTest::newRow("an index into a value") << "training.micro_batch[0]" << "2"
                                           << "training.micro_batch[0]: 'micro_batch' is not a list in the scenario";
    QTest::newRow("a key inside a value") << "training.micro_batch.size" << "2"
                                          << "training.micro_batch.size: 'micro_batch' holds a value, not keys";
    QTest::newRow("a malformed path") << "parallelism..tp" << "2" << "a path is written section.key";
}

void TestSweepPoint::aPointThatIsNoScenarioSaysWhy() {
    QFETCH(QString, path);
    QFETCH(QString, value);
    QFETCH(QString, message);
    const std::vector<AxisValue> point{{path.toStdString(), value.toStdString()}};
    const LoadResult loaded = scenario_at(base_yaml(), point, "point 7");
    QVERIFY(!loaded.ok());
    QVERIFY(!loaded.diagnostics.empty());
    const QString first = QString::fromStdString(loaded.diagnostics.front().to_string());
    QVERIFY2(first.contains(message), qPrintable(first));
}

// What an axis editor offers: every scalar of the base with its path and value as written. Each names a place in the
// scenario, and setting it to its own value gives the base back.
void TestSweepPoint::everyScalarAnAxisCanSet() {
    const std::string base = base_yaml();
    const std::vector<AxisValue> values = scalar_values(base);
    const auto value_at = [&](const std::string& path) -> std::string {
        for (const AxisValue& value : values) {
            if (value.path == path) return value.value;
        }
        return "(none)";
    };
    QCOMPARE(value_at("parallelism.tp"), std::string("2"));
    QCOMPARE(value_at("model.layers"), std::string("4"));
    QCOMPARE(value_at("training.micro_batch"), std::string("2"));
    QCOMPARE(value_at("parallelism.mapping[2]"), std::string("pp"));
    QCOMPARE(value_at("schema"), std::string("(none)"));
    QVERIFY(value_at("cluster.topology[1].bandwidth").find("GB/s") != std::string::npos);
    QVERIFY(values.size() > 20);
    for (const AxisValue& value : values) {
        QVERIFY2(!missing_path(base, value.path), value.path.c_str());
        const LoadResult same = scenario_at(base, std::vector<AxisValue>{value}, "same");
        QVERIFY2(same.ok(), value.path.c_str());
        QCOMPARE(write_scenario_yaml(same.scenario->value()), base);
    }
    QVERIFY(scalar_values("{not: [yaml").empty());
}

void TestSweepPoint::keysWrittenOnlyWhenSetCanBeSet() {
    // The written base names no algorithm, stack or head width (each written only when set), yet an axis may set them:
    // the algorithms of the outer switch side by side, as a network architect sweeps them.
    const std::string base = base_yaml();
    QVERIFY(base.find("algorithm") == std::string::npos);
    for (const char* path : {"cluster.topology[1].algorithm", "training.stack", "model.head_dim"}) {
        QVERIFY2(!missing_path(base, path), path);
    }
    const std::vector<AxisValue> point{{"cluster.topology[1].algorithm", "halving_doubling"},
                                       {"cluster.topology[0].in_switch_reduction", "true"}};
    const LoadResult loaded = scenario_at(base, point, "point 1");
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.diagnostics.front().to_string().c_str());
    QCOMPARE(loaded.scenario->value().cluster.topology[1].algorithm,
             std::optional<CollectiveAlgorithm>{CollectiveAlgorithm::halving_doubling});
    QVERIFY(loaded.scenario->value().cluster.topology[0].in_switch_reduction);
    // Still refused: a dimension the cluster does not have, and a misspelt key (with its did-you-mean).
    const auto no_dimension = missing_path(base, "cluster.topology[5].algorithm");
    QVERIFY(no_dimension && no_dimension->find("there is no [5]") != std::string::npos);
    const auto misspelt = missing_path(base, "cluster.topology[1].algorthm");
    QVERIFY(misspelt && misspelt->find("has no 'algorthm'") != std::string::npos);
}

QTEST_APPLESS_MAIN(TestSweepPoint)
#include "test_sweep_point.moc"
