// A sweep point (sweep/sweep_point.h): the base scenario with its axes' values set at their paths, read back by the
// loader. On tests/data/cli/small_pipeline.yaml (tp 2 · dp 2 · pp 2 on two 4-NPU switches of 300 GB/s joined by a
// switch of 2 at 25 GB/s).

#include "scenario_file/scenario_writer.h"
#include "sweep/sweep_point.h"

#include <QtTest>

#include <filesystem>
#include <thread>

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
    void readOnceAsFromItsText_data();
    void readOnceAsFromItsText();
    void everyScalarIsWrittenInPlace_data();
    void everyScalarIsWrittenInPlace();
    void readOnceFromSeveralThreads();
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

namespace {

// What a point's load says, but where: its scenario as written back, or each diagnostic's path and message.
QString outcome(const LoadResult& loaded) {
    if (loaded.ok()) return QString::fromStdString(write_scenario_yaml(loaded.scenario->value()));
    QString text = QStringLiteral("refused:");
    for (const Diagnostic& diagnostic : loaded.diagnostics) {
        text += QString::fromStdString("\n" + diagnostic.path + " | " + diagnostic.message);
    }
    return text;
}

}  // namespace

// PointScenarios reads a point from the base parsed once, with its values set as they read back from the point's
// YAML; scenario_at writes the point's YAML and loads that text. Both must give the same, on every bundled scenario,
// for values that a YAML emitter must quote, escape or leave plain, in block and flow collections (mapping is written
// [tp, dp, pp]), a key the base lacks, a path past a list's end and a stack that takes its behaviours along.
void TestSweepPoint::readOnceAsFromItsText_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("value");  // bytes: one is not UTF-8
    const std::vector<std::pair<const char*, std::string>> points{
        {"parallelism.pp", "2"},
        {"parallelism.tp", "null"},
        {"parallelism.tp", "~"},
        {"parallelism.tp", ""},
        {"parallelism.tp", "a: b"},
        {"parallelism.tp", "[1, 2]"},
        {"parallelism.tp", "{x: 1}"},
        {"parallelism.tp", "- x"},
        {"parallelism.tp", "--- x"},
        {"parallelism.tp", "#x"},
        {"parallelism.tp", "0x10"},
        {"parallelism.tp", "1e3"},
        {"parallelism.tp", " 4 "},
        {"parallelism.tp", "'4'"},
        {"parallelism.tp", "\"4\""},
        {"parallelism.tp", "*alias"},
        {"parallelism.tp", "&anchor 4"},
        {"parallelism.tp", "!!str 4"},
        {"parallelism.tp", "4\n5"},
        {"parallelism.tp", "bell\a"},
        {"parallelism.tp", "bad \xff byte"},
        {"parallelism.tp", "\xc3\xa9t\xc3\xa9"},
        {"parallelism.sequence_parallel", "yes"},
        {"parallelism.sequence_parallel", "True"},
        {"parallelism.mapping[1]", "dp"},
        {"parallelism.mapping[1]", "a, b"},
        {"parallelism.mapping[1]", "[x]"},
        {"parallelism.mapping[1]", "null"},
        {"parallelism.mapping[1]", "{y: 2}"},
        {"parallelism.mapping[9]", "tp"},
        {"cluster.topology[0].bandwidth", "150 GB/s"},
        {"cluster.topology[0].bandwidth", "150 GB/s: fast"},
        {"simulation.overlap_slowdon", "0.2"},
        {"training.stack", "deepspeed"},
        {"model", "gpt3-13b"},
    };
    for (const auto& entry : std::filesystem::directory_iterator(PARASIGHT_SOURCE_DIR "/presets/scenarios")) {
        const QString file = QString::fromStdString(entry.path().string());
        const QString name = QString::fromStdString(entry.path().filename().string());
        for (std::size_t k = 0; k < points.size(); ++k) {
            QTest::addRow("%s, %s = value %zu", qPrintable(name), points[k].first, k)
                << file << QString::fromUtf8(points[k].first)
                << QByteArray(points[k].second.data(), static_cast<qsizetype>(points[k].second.size()));
        }
    }
}

void TestSweepPoint::readOnceAsFromItsText() {
    QFETCH(QString, file);
    QFETCH(QString, path);
    QFETCH(QByteArray, value);
    const LoadResult base_loaded = load_scenario_file(file.toStdString());
    QVERIFY(base_loaded.ok());
    const std::string base = write_scenario_yaml(base_loaded.scenario->value());
    const std::vector<AxisValue> values{{path.toStdString(), value.toStdString()}};
    const PointScenarios scenarios(base);
    const PointScenarios::Point point = scenarios.at(values, "point", {});
    const LoadResult from_text = scenario_at(base, values, "point", {});
    QCOMPARE(outcome(point.loaded), outcome(from_text));
    const auto yaml = point_yaml(base, values);
    QCOMPARE(QString::fromStdString(point.yaml), yaml ? QString::fromStdString(yaml.value()) : QString());
    // Asked again, the value's reading is known: the point is loaded from a kept copy of the base with the scalar set
    // in place, the same; and after it, that copy holds the base again.
    const PointScenarios::Point again = scenarios.at(values, "point", {});
    QCOMPARE(outcome(again.loaded), outcome(from_text));
    QCOMPARE(QString::fromStdString(again.yaml), QString::fromStdString(point.yaml));
    QCOMPARE(outcome(scenarios.at({}, "point", {}).loaded), outcome(scenario_at(base, {}, "point", {})));
}

// A point's YAML is the base's written text with the point's values put in place of the base's (PointScenarios keeps
// where each scalar is written): the same text as writing the point's whole tree, for every scalar of every bundled
// scenario set alone — to a plain value and to one the emitter quotes — and for all of them set at once.
void TestSweepPoint::everyScalarIsWrittenInPlace_data() {
    QTest::addColumn<QString>("file");
    for (const auto& entry : std::filesystem::directory_iterator(PARASIGHT_SOURCE_DIR "/presets/scenarios")) {
        QTest::newRow(entry.path().filename().string().c_str()) << QString::fromStdString(entry.path().string());
    }
}

void TestSweepPoint::everyScalarIsWrittenInPlace() {
    QFETCH(QString, file);
    const LoadResult base_loaded = load_scenario_file(file.toStdString());
    QVERIFY(base_loaded.ok());
    const std::string base = write_scenario_yaml(base_loaded.scenario->value());
    const PointScenarios scenarios(base);
    std::vector<AxisValue> every;
    for (const AxisValue& scalar : scalar_values(base)) {
        if (scalar.path == "training.stack") continue;  // takes its behaviours' keys along: written whole
        for (const std::string value : {"7", "a: b"}) {
            const std::vector<AxisValue> point{{scalar.path, value}};
            const auto whole = point_yaml(base, point);
            QVERIFY2(whole, scalar.path.c_str());
            QCOMPARE(QString::fromStdString(scenarios.at(point, "point", {}).yaml), QString::fromStdString(whole.value()));
        }
        every.push_back({scalar.path, scalar.value + "0"});
    }
    QVERIFY(every.size() > 20);
    const auto whole = point_yaml(base, every);
    QVERIFY(whole);
    QCOMPARE(QString::fromStdString(scenarios.at(every, "point", {}).yaml), QString::fromStdString(whole.value()));
}

// A sweep's workers read points from one PointScenarios at once; each gets its own point, the base unchanged.
void TestSweepPoint::readOnceFromSeveralThreads() {
    const std::string base = base_yaml();
    const PointScenarios scenarios(base);
    std::vector<QString> tp_read(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < tp_read.size(); ++t) {
        threads.emplace_back([&, t] {
            for (int round = 0; round < 25; ++round) {
                // tp 1, 2, 4 or 8 with dp as the devices leave it: 8 NPUs, pp 2.
                const std::string tp = std::to_string(1 << (t % 3));
                const std::vector<AxisValue> values{{"parallelism.tp", tp}, {"parallelism.dp", "auto"}};
                const PointScenarios::Point point = scenarios.at(values, "point", {});
                tp_read[t] = point.loaded.ok() ? QString::number(point.loaded.scenario->value().parallelism.tp)
                                               : QStringLiteral("refused");
            }
        });
    }
    for (std::thread& thread : threads) thread.join();
    QCOMPARE(tp_read, (std::vector<QString>{"1", "2", "4", "1"}));
    const PointScenarios::Point unchanged = scenarios.at({}, "point", {});
    QVERIFY(unchanged.loaded.ok());
    QCOMPARE(write_scenario_yaml(unchanged.loaded.scenario->value()), base);
}

QTEST_APPLESS_MAIN(TestSweepPoint)
#include "test_sweep_point.moc"
