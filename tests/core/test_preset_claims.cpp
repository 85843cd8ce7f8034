// Every number the bundled scenarios' comments (and presets/README.md) state is checked here against what it states:
// the inputs' arithmetic against the scenario, and what a run or the oracle shows against a run or the oracle.
// Each claim is read out of the text itself, so that a comment edited without its number, or a model change that
// makes one untrue, fails here — pipeline-1f1b.yaml claimed a 27% bubble where ParaSight showed 50.5%.

#include "model/transformer_costs.h"
#include "oracle/oracle_problem.h"
#include "oracle/paradl_oracle.h"
#include "presets/preset_library.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"
#include "strategy/strategy_tree.h"
#include "sweep/delay_sweep.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include <cmath>

using namespace parasight;

namespace {

// The preset's text with its comments' line breaks joined, so that a claim reads as one sentence.
QString preset_text(const char* id) {
    const Preset* preset = find_preset(PresetKind::scenario, id);
    if (preset == nullptr) return {};
    return QString::fromUtf8(preset->text.data(), static_cast<qsizetype>(preset->text.size()))
        .replace(QRegularExpression(QStringLiteral("\n\\s*# ")), QStringLiteral(" "));
}

ValidatedScenario loaded(const char* id) {
    const Preset* preset = find_preset(PresetKind::scenario, id);
    LoadResult result = load_scenario_text(preset->text, std::string(preset->file));
    if (!result.ok()) qFatal("preset %s does not load", id);
    return std::move(*result.scenario);
}

// The number `pattern`'s first group captures in `text`; NaN when it does not match (the claim was edited away).
double claimed(const QString& text, const QString& pattern) {
    const QRegularExpressionMatch match = QRegularExpression(pattern).match(text);
    return match.hasMatch() ? match.captured(1).toDouble() : std::nan("");
}

// `value` as the text writes it, to `decimals` places.
double rounded(double value, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

}  // namespace

class TestPresetClaims : public QObject {
    Q_OBJECT
private slots:
    void pipelineBubbles_data();
    void pipelineBubbles();
    void oneFOneBHoldsHalfOfGPipesActivationsOnStage0();
    void defaultScenarioArithmetic();
    void llama3Arithmetic();
    void bertLargeHidesAboutThreeMs();
    void resnet50Limits();
};

void TestPresetClaims::pipelineBubbles_data() {
    QTest::addColumn<QString>("preset");
    QTest::newRow("1f1b") << QStringLiteral("pipeline-1f1b");
    QTest::newRow("gpipe") << QStringLiteral("pipeline-gpipe");
}

void TestPresetClaims::pipelineBubbles() {
    QFETCH(QString, preset);
    const QByteArray id = preset.toUtf8();
    const QString text = preset_text(id.constData());
    const ValidatedScenario scenario = loaded(id.constData());
    const Scenario& s = scenario.value();
    // "(p − 1) / (m + p − 1) = 3 / 11 = 27% of the iteration for p = 4 stages and m = 8 micro-batches".
    QCOMPARE(claimed(text, QStringLiteral("for\\s+p = (\\d+) stages")), static_cast<double>(s.parallelism.pp));
    QCOMPARE(claimed(text, QStringLiteral("and m = (\\d+) micro-batches")), static_cast<double>(s.micro_batches()));
    const double p = s.parallelism.pp;
    const double m = static_cast<double>(s.micro_batches());
    QCOMPARE(claimed(text, QStringLiteral("= (\\d+) / \\d+ = \\d+% of the iteration")), p - 1.0);
    QCOMPARE(claimed(text, QStringLiteral("= \\d+ / (\\d+) = \\d+% of the iteration")), m + p - 1.0);
    QCOMPARE(claimed(text, QStringLiteral("= \\d+ / \\d+ = (\\d+)% of the iteration")),
             rounded(100.0 * (p - 1.0) / (m + p - 1.0), 0));
    // "the logits over GPT-2's vocabulary of 50304 tokens — about 3.5 layers' work (2·s·h·V against a layer's
    // 24·s·h²·(1 + s/6h))": forward FLOPs of the logits over a layer's, per sequence.
    QCOMPARE(claimed(text, QStringLiteral("vocabulary of (\\d+) tokens")), static_cast<double>(s.model.vocab));
    const double h = s.model.hidden;
    const double seq = s.model.seq_len;
    const double logits = 2.0 * seq * h * s.model.vocab;
    const double layer = 24.0 * seq * h * h * (1.0 + seq / (6.0 * h));
    QCOMPARE(claimed(text, QStringLiteral("about ([0-9.]+) layers' work")), rounded(logits / layer, 1));
    // "the bubble is 50.5% of the iteration": the run's mean bubble over its iteration.
    const auto run = simulate(scenario, SimulateOptions{});
    QVERIFY(run.has_value());
    const double bubble = 100.0 * run->report.breakdown.bubble_s / run->report.iteration_time_s;
    QCOMPARE(claimed(text, QStringLiteral("the bubble is ([0-9.]+)% of the iteration")), rounded(bubble, 1));
}

void TestPresetClaims::oneFOneBHoldsHalfOfGPipesActivationsOnStage0() {
    // presets/README.md: "half of GPipe's activation memory on stage 0" — 1F1B's stage 0 holds p = 4 micro-batches
    // in flight, GPipe's all m = 8.
    QFile readme(QStringLiteral(PARASIGHT_SOURCE_DIR "/presets/README.md"));
    QVERIFY(readme.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(readme.readAll()).contains(QStringLiteral("half of GPipe's activation memory on stage 0")));
    const auto stage0_activations = [](const char* id) {
        const auto run = simulate(loaded(id), SimulateOptions{});
        return run->report.per_device.front().memory_at_peak_bytes[static_cast<std::size_t>(MemoryCategory::activations)];
    };
    QCOMPARE(stage0_activations("pipeline-1f1b") / stage0_activations("pipeline-gpipe"), 0.5);
}

void TestPresetClaims::defaultScenarioArithmetic() {
    const QString text = preset_text("default");
    const ValidatedScenario scenario = loaded("default");
    const Scenario& s = scenario.value();
    // "gives 1536 / 8 = 192 micro-batches per pipeline" and "1024 / (8 x 16) = 8".
    QCOMPARE(claimed(text, QStringLiteral("gives (\\d+) / \\d+ = \\d+ micro-batches")),
             static_cast<double>(s.training.global_batch));
    QCOMPARE(claimed(text, QStringLiteral("gives \\d+ / (\\d+) = \\d+ micro-batches")), static_cast<double>(s.parallelism.dp));
    QCOMPARE(claimed(text, QStringLiteral("gives \\d+ / \\d+ = (\\d+) micro-batches")), static_cast<double>(s.micro_batches()));
    QCOMPARE(claimed(text, QStringLiteral("# (\\d+) / \\(\\d+ x \\d+\\) = \\d+")), static_cast<double>(s.device_count()));
    QCOMPARE(claimed(text, QStringLiteral("# \\d+ / \\((\\d+) x \\d+\\) = \\d+")), static_cast<double>(s.parallelism.tp));
    QCOMPARE(claimed(text, QStringLiteral("# \\d+ / \\(\\d+ x (\\d+)\\) = \\d+")), static_cast<double>(s.parallelism.pp));
    QCOMPARE(claimed(text, QStringLiteral("# \\d+ / \\(\\d+ x \\d+\\) = (\\d+)")), static_cast<double>(s.parallelism.dp));
}

void TestPresetClaims::llama3Arithmetic() {
    const QString text = preset_text("llama3-405b-16k");
    const ValidatedScenario scenario = loaded("llama3-405b-16k");
    const Scenario& s = scenario.value();
    // "16 per DP group x DP 128 = 2048"
    QCOMPARE(claimed(text, QStringLiteral("x DP (\\d+) = \\d+")), static_cast<double>(s.parallelism.dp));
    QCOMPARE(claimed(text, QStringLiteral("x DP \\d+ = (\\d+)")), static_cast<double>(s.training.global_batch));
    QCOMPARE(claimed(text, QStringLiteral("(\\d+) per DP group")) * s.parallelism.dp,
             static_cast<double>(s.training.global_batch));
    // "(8 x 16 x 128 = 16384)"
    QCOMPARE(claimed(text, QStringLiteral("\\(8 x 16 x 128 = (\\d+)\\)")), static_cast<double>(s.device_count()));
    QCOMPARE(8.0 * 16.0 * 128.0, static_cast<double>(s.parallelism.tp * s.parallelism.pp * s.parallelism.dp));
    // "(14 x 8 + 2 x 7 = 126)": 8 layers on every stage but the first and the last, which hold 7.
    const StrategyTree tree(scenario);
    for (int stage = 0; stage < s.parallelism.pp; ++stage) {
        const int expected = stage == 0 || stage == s.parallelism.pp - 1 ? 7 : 8;
        QCOMPARE(tree.layers_of_stage(stage), expected);
    }
    QCOMPARE(claimed(text, QStringLiteral("2 x 7 = (\\d+)\\)")), static_cast<double>(s.model.layers));
    // "with 126 + 2 = 128 one-layer slots on 16 stages V is 8" and "16 micro-batches = PP".
    QCOMPARE(claimed(text, QStringLiteral("126 \\+ 2 = (\\d+) one-layer slots")) / s.parallelism.pp,
             static_cast<double>(s.parallelism.virtual_stages));
    QCOMPARE(claimed(text, QStringLiteral("(\\d+) micro-batches = PP")), static_cast<double>(s.micro_batches()));
    QCOMPARE(s.micro_batches(), static_cast<std::int64_t>(s.parallelism.pp));
}

void TestPresetClaims::bertLargeHidesAboutThreeMs() {
    // "until the delay outgrows that window — about 3 ms here": the knee of the sweep the comment gives,
    // parasight-cli whatif --delay '0..4ms +0.25ms' --group dp.
    const QString text = preset_text("bert-large-dp8");
    QVERIFY(text.contains(QStringLiteral("--delay '0..4ms +0.25ms' --group dp")));
    const Expected<std::vector<double>> delays = parse_delays("0..4ms +0.25ms");
    QVERIFY(delays.has_value());
    CollectiveDelay rule;
    rule.group = ParallelAxis::dp;
    const auto sweep = sweep_delay(loaded("bert-large-dp8"), rule, delays.value(), {});
    QVERIFY(sweep.has_value());
    QCOMPARE(claimed(text, QStringLiteral("about ([0-9.]+) ms here")), sweep->hidden_delay_s * 1e3);
}

void TestPresetClaims::resnet50Limits() {
    // "data parallelism at p = B = 256, spatial parallelism at the 7 x 7 activations of the last stage, filter
    // parallelism at conv1's 64 filters": each strategy passes its limit just beyond the number stated.
    const QString text = preset_text("resnet50-abci");
    const auto problem = oracle_problem(loaded("resnet50-abci"));
    QVERIFY(problem.has_value());
    const double batch = claimed(text, QStringLiteral("p = B = (\\d+)"));
    QCOMPARE(batch, static_cast<double>(loaded("resnet50-abci").value().training.global_batch));
    const auto ruled_out = [&](OracleStrategy strategy, OraclePes pes) {
        return oracle_estimate(problem.value(), strategy, pes).ruled_out.has_value();
    };
    const auto b = static_cast<std::int64_t>(batch);
    QVERIFY(!ruled_out(OracleStrategy::data, {b}));
    QVERIFY(ruled_out(OracleStrategy::data, {2 * b}));
    const auto filters = static_cast<std::int64_t>(claimed(text, QStringLiteral("at conv1's (\\d+) filters")));
    QVERIFY(!ruled_out(OracleStrategy::filter, {filters}));
    QVERIFY(ruled_out(OracleStrategy::filter, {2 * filters}));
    const auto side = static_cast<std::int64_t>(claimed(text, QStringLiteral("at the (\\d+) x \\d+ activations")));
    QVERIFY(!ruled_out(OracleStrategy::spatial, {side * side, 1, 1, side, side}));
    QVERIFY(ruled_out(OracleStrategy::spatial, {(side + 1) * (side + 1), 1, 1, side + 1, side + 1}));
}

QTEST_GUILESS_MAIN(TestPresetClaims)
#include "test_preset_claims.moc"
