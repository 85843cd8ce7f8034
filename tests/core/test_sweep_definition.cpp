// A scenario file's sweep section (scenario_file/sweep_section.h) read into axes (sweep/sweep_definition.h): lists,
// ranges, zipped entries and strategies, and every mistake at its FILE:LINE:COL.

#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"
#include "sweep/sweep_definition.h"

#include <QtTest>

using namespace parasight;

namespace {

// tests/data/cli/small_pipeline.yaml's scenario followed by `section` (the file's lines 1-11 are the scenario).
std::string with_section(const std::string& section) {
    return "schema: 1\n"                                                                              // 1
           "name: small\n"                                                                            // 2
           "model: {kind: transformer, layers: 4, hidden: 256, heads: 8, seq_len: 256, vocab: 1024}\n"  // 3
           "training: {global_batch: 16, micro_batch: 2}\n"                                           // 4
           "cluster:\n"                                                                               // 5
           "  device: a100-80gb\n"                                                                    // 6
           "  topology:\n"                                                                            // 7
           "    - {kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}\n"                      // 8
           "    - {kind: switch, size: 2, bandwidth: 25 GB/s,  latency: 5 us}\n"                      // 9
           "parallelism: {tp: 2, dp: auto, pp: 2, mapping: [tp, dp, pp]}\n"                           // 10
           "sweep:\n" +                                                                               // 11
           section;
}

SweepDefinition definition_of(const std::string& text, QString& problems) {
    const ReadResult read = read_scenario_text(text, "s.yaml");
    const SweepSectionRead section = read_sweep_section(text, "s.yaml");
    if (!read.scenario) {
        problems = "the scenario did not read";
        return {};
    }
    SweepDefinition definition;
    for (const Diagnostic& diagnostic : section.diagnostics) definition.diagnostics.push_back(diagnostic);
    if (!section.section || !section.diagnostics.empty()) return definition;
    const Validation validated = validate(*read.scenario);
    const std::string base = write_scenario_yaml(validated.ok() ? validated.scenario->value() : *read.scenario);
    return sweep_definition(*section.section, *read.scenario, base);
}

}  // namespace

class TestSweepDefinition : public QObject {
    Q_OBJECT
private slots:
    void theSectionsAxesInOrder();
    void aScenarioWithASectionLoadsAsItsBase();
    void mistakesAreLocated_data();
    void mistakesAreLocated();
};

void TestSweepDefinition::theSectionsAxesInOrder() {
    QString problems;
    const SweepDefinition definition = definition_of(with_section("  axes:\n"
                                                                  "    - parallelism.tp: [1, 2, 4]\n"
                                                                  "    - cluster.topology[1].bandwidth: "
                                                                  "25..100 GB/s +25 GB/s\n"
                                                                  "    - {parallelism.recompute: [full, selective], "
                                                                  "parallelism.sequence_parallel: [false, true]}\n"
                                                                  "  strategies: degrees\n"),
                                                     problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
    QVERIFY2(definition.diagnostics.empty(),
             definition.diagnostics.empty() ? "" : definition.diagnostics.front().to_string().c_str());
    // Three entries (the third zipped, two paths), and the strategy degrees (tp, pp, dp zipped) apart. The tp axis
    // and the strategies' tp would collide: SweepSpace refuses that; here only the lists are checked.
    QCOMPARE(definition.axes.size(), std::size_t{4});
    QCOMPARE(definition.strategy_axes.size(), std::size_t{3});
    QCOMPARE(definition.axes[0].values, (std::vector<std::string>{"1", "2", "4"}));
    QCOMPARE(definition.axes[1].values, (std::vector<std::string>{"25 GB/s", "50 GB/s", "75 GB/s", "100 GB/s"}));
    QCOMPARE(definition.axes[2].path, std::string("parallelism.recompute"));
    QVERIFY(!definition.axes[2].zipped_with_previous);
    QCOMPARE(definition.axes[3].path, std::string("parallelism.sequence_parallel"));
    QVERIFY(definition.axes[3].zipped_with_previous);
    QCOMPARE(definition.strategy_axes[0].path, std::string("parallelism.tp"));
    QCOMPARE(definition.strategy_axes[0].values.size(), std::size_t{9});  // test_strategy_space counts the 9 layouts
}

void TestSweepDefinition::aScenarioWithASectionLoadsAsItsBase() {
    const LoadResult loaded = load_scenario_text(with_section("  axes:\n    - parallelism.tp: [1, 2]\n"), "s.yaml");
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.diagnostics.front().to_string().c_str());
    QCOMPARE(loaded.scenario->value().parallelism.tp, 2);
}

void TestSweepDefinition::mistakesAreLocated_data() {
    QTest::addColumn<QString>("section");
    QTest::addColumn<QString>("diagnostic");
    QTest::newRow("a path the scenario lacks")
        << "  axes:\n    - parallelism.tpp: [1, 2]\n"
        << "s.yaml:13:24: sweep axis parallelism.tpp: 'parallelism' has no 'tpp' (did you mean 'tp'?)";
    QTest::newRow("a malformed range") << "  axes:\n    - parallelism.pp: 1..8 x1\n"
                                       << "s.yaml:13:23: sweep axis parallelism.pp: a range's factor must be a number "
                                          "above 1, not '1'";
    QTest::newRow("zipped of unequal length")
        << "  axes:\n    - {parallelism.tp: [1, 2], parallelism.pp: [1, 2, 4]}\n"
        << "s.yaml:13:48: zipped axes take their values together, so each needs as many: parallelism.tp has 2, "
           "parallelism.pp has 3";
    QTest::newRow("an entry that is a value") << "  axes:\n    - parallelism.tp\n"
                                              << "s.yaml:13:7: sweep.axes[0] must map a scenario path to its values "
                                                 "(parallelism.tp: [1, 2, 4]), found a scalar";
    QTest::newRow("an unknown key") << "  axis:\n    - parallelism.tp: [1, 2]\n"
                                    << "s.yaml:12:3: unknown key 'axis' in sweep (did you mean 'axes'?); allowed "
                                       "keys: axes or strategies";
    QTest::newRow("an unknown space") << "  strategies: every\n"
                                      << "s.yaml:12:15: sweep.strategies: strategies is all (every layout, schedule, "
                                         "micro-batch, ZeRO stage and recompute) or degrees (every tp × pp × dp), "
                                         "not 'every'";
    QTest::newRow("a list of no values") << "  axes:\n    - parallelism.tp: []\n"
                                         << "s.yaml:13:23: sweep.axes[0].parallelism.tp has no values";
}

void TestSweepDefinition::mistakesAreLocated() {
    QFETCH(QString, section);
    QFETCH(QString, diagnostic);
    QString problems;
    const SweepDefinition definition = definition_of(with_section(section.toStdString()), problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
    QVERIFY(!definition.diagnostics.empty());
    QCOMPARE(QString::fromStdString(definition.diagnostics.front().to_string()), diagnostic);
}

QTEST_GUILESS_MAIN(TestSweepDefinition)
#include "test_sweep_definition.moc"
