// Setting up a sweep from what a user gives (sweep/sweep_setup.h) and what "best" means for it
// (sweep/sweep_ranking.h): axes from the file's section, then as written, then the strategy space, in that order;
// every way the axes make no sweep, with the words the command line and the window both show; the default ranking.

#include "sweep/sweep_ranking.h"
#include "sweep/sweep_setup.h"

#include <QtTest>

#include <fstream>

using namespace parasight;

namespace {

// tests/data/cli/small_pipeline.yaml's scenario (8 devices, tp 2, dp derived, pp 2) and `section` after it.
SweepBase base_with(const std::string& section) {
    const std::string text = "schema: 1\n"
                             "name: small\n"
                             "model: {kind: transformer, layers: 4, hidden: 256, heads: 8, seq_len: 256, vocab: 1024}\n"
                             "training: {global_batch: 16, micro_batch: 2}\n"
                             "cluster:\n"
                             "  device: a100-80gb\n"
                             "  topology:\n"
                             "    - {kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}\n"
                             "    - {kind: switch, size: 2, bandwidth: 25 GB/s,  latency: 5 us}\n"
                             "parallelism: {tp: 2, dp: auto, pp: 2, mapping: [tp, dp, pp]}\n" +
                             section;
    const QString path = QDir::temp().filePath(QStringLiteral("parasight-sweep-setup-%1.yaml")
                                                   .arg(QCoreApplication::applicationPid()));
    std::ofstream(path.toStdString()) << text;
    Expected<SweepBase, Diagnostics> base = read_sweep_base(path.toStdString());
    QFile::remove(path);
    if (!base) qFatal("the test scenario did not read: %s", base.error().front().to_string().c_str());
    return std::move(base).value();
}

}  // namespace

class TestSweepSetup : public QObject {
    Q_OBJECT
private slots:
    void axesComeFromTheSectionThenAsWrittenThenStrategies();
    void aBaseFromAFileKeepsItsFolderAndItsCompletedYaml();
    void axesThatMakeNoSweepSaySo_data();
    void axesThatMakeNoSweepSaySo();
    void theDefaultRankingFollowsTheWorkPerIteration_data();
    void theDefaultRankingFollowsTheWorkPerIteration();
    void anUnknownMetricListsTheMetrics();
};

void TestSweepSetup::axesComeFromTheSectionThenAsWrittenThenStrategies() {
    const SweepBase base = base_with("sweep:\n  axes:\n    - training.micro_batch: [1, 2]\n  strategies: degrees\n");
    const Expected<SweepPlan, SweepSetupProblem> plan = plan_sweep(base, {"cluster.topology[1].bandwidth=25,50 GB/s"}, {});
    QVERIFY(plan);
    // The section's axis, the written one, then the section's strategies (tp, pp, dp zipped). 8 devices as
    // tp × pp × dp with tp dividing the 8 heads and pp at most the 4 layers: tp ∈ {1, 2, 4, 8}, pp ∈ {1, 2, 4},
    // dp what is left: (1,1,8) (1,2,4) (1,4,2) (2,1,4) (2,2,2) (2,4,1) (4,1,2) (4,2,1) (8,1,1) = 9 strategies.
    const std::vector<std::string> paths = axis_paths(plan.value());
    const std::vector<std::string> expected{"training.micro_batch", "cluster.topology[1].bandwidth", "parallelism.tp",
                                            "parallelism.pp", "parallelism.dp"};
    QCOMPARE(paths, expected);
    QCOMPARE(plan.value().space.point_count(), std::size_t{2 * 2 * 9});
    QCOMPARE(plan.value().name, std::string("small"));
    QVERIFY(plan.value().base_facts.has_value());
}

void TestSweepSetup::aBaseFromAFileKeepsItsFolderAndItsCompletedYaml() {
    const SweepBase base = base_with("");
    QCOMPARE(base.directory, std::filesystem::path(QDir::tempPath().toStdString()));
    // Valid as it stands, so completed: ffn_hidden is 4 × hidden = 1024; dp stays as written, derived per point.
    QVERIFY(base.yaml.find("ffn_hidden: 1024") != std::string::npos);
    QVERIFY(base.yaml.find("dp: auto") != std::string::npos);
    QVERIFY(base.section.axes.empty());
}

void TestSweepSetup::axesThatMakeNoSweepSaySo_data() {
    QTest::addColumn<QString>("section");
    QTest::addColumn<QStringList>("specs");
    QTest::addColumn<QString>("strategies");
    QTest::addColumn<int>("source");
    QTest::addColumn<QString>("given");
    QTest::addColumn<QString>("message");
    using Source = SweepSetupProblem::Source;
    QTest::newRow("nothing to sweep") << "" << QStringList{} << "" << int(Source::no_axes) << "" << "nothing to sweep over";
    QTest::newRow("an axis without values")
        << "" << QStringList{"parallelism.tp"} << "" << int(Source::axis) << "parallelism.tp"
        << "an axis is written PATH=VALUES (e.g. parallelism.tp=1,2,4,8), not 'parallelism.tp'";
    QTest::newRow("a path the scenario lacks")
        << "" << QStringList{"parallelism.tpp=1,2"} << "" << int(Source::axis) << "parallelism.tpp=1,2"
        << "parallelism.tpp: 'parallelism' has no 'tpp' (did you mean 'tp'?)";
    QTest::newRow("a strategy space that does not exist")
        << "" << QStringList{} << "most" << int(Source::strategies) << "most"
        << QStringLiteral("strategies is all (every layout, schedule, micro-batch, ZeRO stage and recompute) or "
                          "degrees (every tp \u00D7 pp \u00D7 dp), not 'most'");
    QTest::newRow("strategies twice")
        << "sweep:\n  strategies: all\n" << QStringList{} << "degrees" << int(Source::strategies) << "degrees"
        << "the file's sweep section already sets strategies";
    QTest::newRow("one path twice")
        << "" << QStringList{"parallelism.tp=1,2", "parallelism.tp=4"} << "" << int(Source::space) << ""
        << "two axes vary 'parallelism.tp'; give its values once";
}

void TestSweepSetup::axesThatMakeNoSweepSaySo() {
    QFETCH(QString, section);
    QFETCH(QStringList, specs);
    QFETCH(QString, strategies);
    QFETCH(int, source);
    QFETCH(QString, given);
    QFETCH(QString, message);
    std::vector<std::string> written;
    for (const QString& spec : specs) written.push_back(spec.toStdString());
    const std::optional<std::string> space =
        strategies.isEmpty() ? std::nullopt : std::optional<std::string>(strategies.toStdString());
    const Expected<SweepPlan, SweepSetupProblem> plan = plan_sweep(base_with(section.toStdString()), written, space);
    QVERIFY(!plan);
    QCOMPARE(int(plan.error().source), source);
    QCOMPARE(QString::fromStdString(plan.error().given), given);
    QCOMPARE(QString::fromStdString(plan.error().message), message);
}

void TestSweepSetup::theDefaultRankingFollowsTheWorkPerIteration_data() {
    QTest::addColumn<QStringList>("paths");
    QTest::addColumn<bool>("transformer");
    QTest::addColumn<QString>("metric");
    QTest::addColumn<bool>("higherIsBetter");
    QTest::addColumn<QString>("reason");
    QTest::newRow("strategies only") << QStringList{"parallelism.tp", "parallelism.pp"} << true << "iteration_time_s"
                                     << false << "";
    QTest::newRow("the global batch, a transformer")
        << QStringList{"parallelism.tp", "training.global_batch"} << true << "tokens_per_s" << true
        << "training.global_batch changes the work per iteration, so iteration times do not compare";
    QTest::newRow("the model, a CNN") << QStringList{"model.layers"} << false << "samples_per_s" << true
                                      << "model.layers changes the work per iteration, so iteration times do not "
                                         "compare";
    // The micro-batch splits the same global batch differently: the work per iteration stays.
    QTest::newRow("the micro-batch") << QStringList{"training.micro_batch"} << true << "iteration_time_s" << false
                                     << "";
}

void TestSweepSetup::theDefaultRankingFollowsTheWorkPerIteration() {
    QFETCH(QStringList, paths);
    QFETCH(bool, transformer);
    QFETCH(QString, metric);
    QFETCH(bool, higherIsBetter);
    QFETCH(QString, reason);
    std::vector<std::string> axis_paths;
    for (const QString& path : paths) axis_paths.push_back(path.toStdString());
    const DefaultRanking ranking = default_ranking(axis_paths, transformer);
    QCOMPARE(QString::fromUtf8(ranking.metric.column.data(), qsizetype(ranking.metric.column.size())), metric);
    QCOMPARE(ranking.metric.higher_is_better, higherIsBetter);
    QCOMPARE(QString::fromStdString(ranking.reason), reason);
    // A metric named explicitly wins and needs no reason.
    const Expected<DefaultRanking> chosen = chosen_ranking(std::string("mfu"), axis_paths, transformer);
    QVERIFY(chosen);
    QCOMPARE(chosen.value().metric.column, std::string_view("mfu"));
    QVERIFY(chosen.value().reason.empty());
}

void TestSweepSetup::anUnknownMetricListsTheMetrics() {
    const Expected<RankingMetric> metric = ranking_metric("mfuu");
    QVERIFY(!metric);
    QCOMPARE(QString::fromStdString(metric.error()),
             QStringLiteral("unknown metric 'mfuu' (did you mean 'mfu'?); the metrics are iteration_time_s, "
                            "samples_per_s, tokens_per_s, mfu, hfu or peak_memory_bytes"));
    QCOMPARE(ranking_metrics().size(), std::size_t{6});
    // 45.1% MFU; 62.3 GiB as the memory columns write it.
    QCOMPARE(ranking_metric("mfu").value().format(0.451), std::string("45.1% MFU"));
    QCOMPARE(ranking_metric("peak_memory_bytes").value().format(62.3 * 1024 * 1024 * 1024), std::string("62.3 GiB"));
}

QTEST_APPLESS_MAIN(TestSweepSetup)
#include "test_sweep_setup.moc"
