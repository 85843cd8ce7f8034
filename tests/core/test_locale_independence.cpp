// Numbers written and read the same whatever the C and C++ locales say (docs/architecture.md, "Locale"). A Qt
// application calls setlocale(LC_ALL, ""), after which printf writes "17,16 GiB" under a German locale, and a stream
// made under a German global C++ locale writes 12288 as "12.288". Each case runs under "C", then under de_DE.UTF-8
// (the C locale and the C++ global locale both), and must give the same text or value: the one worked out by hand.
//
// The German locale must be installed (Debian: locales-all); without it the suite fails rather than test nothing.

#include "export/breakdown_csv.h"
#include "export/chrome_trace.h"
#include "export/report_json.h"
#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"
#include "simulation/simulate.h"
#include "units/quantity.h"

#include "numeric_compare.h"

#include <QTest>

#include <clocale>
#include <locale>
#include <sstream>
#include <string>

using parasight::testing::qs;
using Dim = parasight::units::Dimension;

namespace {

constexpr const char* german = "de_DE.UTF-8";
constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

// Both locales a program can change: C's (printf, strtod) and the C++ global one (every stream made after it).
void use_locale(const char* name) {
    std::setlocale(LC_ALL, name);
    std::locale::global(std::locale(name));
}

enum class Format { readable, readable_binary, quantity, number, fixed };

std::string formatted(Format format, double value, Dim dimension, int decimals) {
    switch (format) {
    case Format::readable: return parasight::units::format_readable(value, dimension);
    case Format::readable_binary: return parasight::units::format_readable(value, dimension, 4, true);
    case Format::quantity: return parasight::units::format_quantity(value, dimension);
    case Format::number: return parasight::units::format_number(value);
    case Format::fixed: return parasight::units::format_fixed(value, decimals);
    }
    return {};
}

// Decimal quantities, integers of four digits and more, two pipeline stages on NPUs 0 and 1024 (dp 1024 × pp 2, the
// pipeline axis outermost), an operation recomputed for nothing and a device out of memory: every kind of number the
// outputs hold, and both warnings that print numbers.
const std::string numbers_yaml = R"(schema: 1
name: numbers in German
model: {kind: transformer, layers: 2, hidden: 1024, heads: 16, seq_len: 1024, vocab: 50257}
training: {global_batch: 2048, micro_batch: 1, dtype: bf16}
cluster:
  device: {name: small GPU, peak: {bf16: 312.5 TFLOP/s}, memory: 1.25 GiB, memory_bandwidth: 2039 GB/s}
  topology:
    - {kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1.5 us}
    - {kind: switch, size: 256, bandwidth: 25 GB/s, latency: 2.5 us}
parallelism: {dp: 1024, pp: 2}
strategy_tree: [{node: "layer[1].mlp.activation", recompute: full}]
)";

enum class Output { scenario_yaml, report_json, breakdown_csv, chrome_trace, graph_too_large };

// What the core writes for the scenario, read and simulated under the current locales.
std::string written(Output output) {
    const parasight::LoadResult loaded = parasight::load_scenario_text(numbers_yaml, "numbers.yaml");
    if (!loaded.ok()) return "not loaded: " + loaded.diagnostics.front().to_string();
    if (output == Output::scenario_yaml) return parasight::write_scenario_yaml(loaded.scenario->value());
    parasight::SimulateOptions options;
    options.timeline = parasight::TimelineDetail::events;
    options.record_memory_timeline = true;
    if (output == Output::graph_too_large) options.max_tasks = 10;
    const auto simulation = parasight::simulate(*loaded.scenario, options);
    if (!simulation) return simulation.error().message;
    parasight::Report report = simulation->report;
    report.wall_s = 0.0;     // the one number that differs from run to run
    std::ostringstream out;  // made under the current global C++ locale
    switch (output) {
    case Output::report_json: return parasight::report_json(report);
    case Output::breakdown_csv: parasight::write_breakdown_csv(out, report); break;
    case Output::chrome_trace: parasight::write_chrome_trace(out, *simulation->timeline); break;
    case Output::scenario_yaml:
    case Output::graph_too_large: return "simulated, though it should not have been";
    }
    return out.str();
}

}  // namespace

Q_DECLARE_METATYPE(Format)
Q_DECLARE_METATYPE(Output)
Q_DECLARE_METATYPE(parasight::units::Dimension)

class TestLocaleIndependence : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void formatsForPeopleAndFiles_data();
    void formatsForPeopleAndFiles();
    void parsesQuantities_data();
    void parsesQuantities();
    void writesTheSameOutputs_data();
    void writesTheSameOutputs();
};

void TestLocaleIndependence::initTestCase() {
    QVERIFY2(std::setlocale(LC_ALL, german) != nullptr,
             "the de_DE.UTF-8 locale is not installed; install Debian's locales-all (apt-get install locales-all) "
             "to run this suite");
    use_locale("C");
}

void TestLocaleIndependence::cleanup() { use_locale("C"); }

void TestLocaleIndependence::formatsForPeopleAndFiles_data() {
    QTest::addColumn<Format>("format");
    QTest::addColumn<double>("value");
    QTest::addColumn<Dim>("dimension");
    QTest::addColumn<int>("decimals");
    QTest::addColumn<QString>("text");
    // 17.16 · 2^30 B is 17.16 GiB exactly (a power-of-two factor), 4 significant digits.
    QTest::newRow("readable 17.16 GiB") << Format::readable_binary << 17.16 * GiB << Dim::size << 0
                                        << QStringLiteral("17.16 GiB");
    // 1.5e-6 s reaches microseconds, not milliseconds.
    QTest::newRow("readable 1.5 us") << Format::readable << 1.5e-6 << Dim::time << 0 << QStringLiteral("1.5 us");
    // 0.00439213 s = 4.39213 ms, rounded to 4 digits.
    QTest::newRow("readable 4.392 ms") << Format::readable << 0.00439213 << Dim::time << 0
                                       << QStringLiteral("4.392 ms");
    QTest::newRow("readable 260 GB/s") << Format::readable << 2.6e11 << Dim::bandwidth << 0
                                       << QStringLiteral("260 GB/s");
    // Exact quantities: 300 GB/s and 17.16 GiB say their values in the fewest characters; 1.5 us = 1.5e-6 s exactly
    // as parse_quantity reads it (1.5 / 10^6).
    QTest::newRow("quantity 300 GB/s") << Format::quantity << 3e11 << Dim::bandwidth << 0
                                       << QStringLiteral("300 GB/s");
    QTest::newRow("quantity 17.16 GiB") << Format::quantity << 17.16 * GiB << Dim::size << 0
                                        << QStringLiteral("17.16 GiB");
    QTest::newRow("quantity 1.5 us") << Format::quantity << 1.5e-6 << Dim::time << 0 << QStringLiteral("1.5 us");
    QTest::newRow("number 0.85") << Format::number << 0.85 << Dim::size << 0 << QStringLiteral("0.85");
    // Fixed decimals: 155.3876 to 2 places rounds up; 1.28e8 to none is all its digits, ungrouped.
    QTest::newRow("fixed 155.39") << Format::fixed << 155.3876 << Dim::size << 2 << QStringLiteral("155.39");
    QTest::newRow("fixed 128000000") << Format::fixed << 1.28e8 << Dim::size << 0 << QStringLiteral("128000000");
}

void TestLocaleIndependence::formatsForPeopleAndFiles() {
    QFETCH(Format, format);
    QFETCH(double, value);
    QFETCH(Dim, dimension);
    QFETCH(int, decimals);
    QFETCH(QString, text);
    QCOMPARE(qs(formatted(format, value, dimension, decimals)), text);
    use_locale(german);
    QCOMPARE(qs(formatted(format, value, dimension, decimals)), text);
}

void TestLocaleIndependence::parsesQuantities_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<Dim>("dimension");
    QTest::addColumn<double>("value");
    // The number times the unit's factor, divided by its divisor for units below the base unit: 17.16 · 2^30,
    // 1.5 / 10^6, 300 · 10^9, 312.5 · 10^12.
    QTest::newRow("17.16 GiB") << QStringLiteral("17.16 GiB") << Dim::size << 17.16 * GiB;
    QTest::newRow("1.5 us") << QStringLiteral("1.5 us") << Dim::time << 1.5e-6;
    QTest::newRow("300 GB/s") << QStringLiteral("300 GB/s") << Dim::bandwidth << 3e11;
    QTest::newRow("312.5 TFLOP/s") << QStringLiteral("312.5 TFLOP/s") << Dim::flop_rate << 3.125e14;
}

void TestLocaleIndependence::parsesQuantities() {
    QFETCH(QString, text);
    QFETCH(Dim, dimension);
    QFETCH(double, value);
    const auto in_c = parasight::units::parse_quantity(text.toStdString(), dimension);
    QVERIFY(in_c.has_value());
    QCOMPARE_EQ(*in_c, value);
    use_locale(german);
    const auto in_german = parasight::units::parse_quantity(text.toStdString(), dimension);
    QVERIFY2(in_german.has_value(), qPrintable(qs(in_german ? std::string() : in_german.error())));
    QCOMPARE_EQ(*in_german, value);
}

void TestLocaleIndependence::writesTheSameOutputs_data() {
    QTest::addColumn<Output>("output");
    QTest::addColumn<QString>("excerpt");  // what the C locale's text holds, worked out from the scenario
    QTest::newRow("scenario YAML") << Output::scenario_yaml << QStringLiteral("vocab: 50257");
    // The last stage's NPU 1024 holds the peak; the capacity is the scenario's 1.25 GiB.
    QTest::newRow("report JSON") << Output::report_json << QStringLiteral("out of memory: NPU 1024 needs ");
    QTest::newRow("report JSON, capacity") << Output::report_json << QStringLiteral(" of its 1.25 GiB;");
    // NPU 1024, stage 1, standing for its 1024 data-parallel replicas.
    QTest::newRow("breakdown CSV") << Output::breakdown_csv << QStringLiteral("\n1024,1,1024,");
    QTest::newRow("Chrome trace") << Output::chrome_trace << QStringLiteral("\"pid\":1024");
    QTest::newRow("graph too large") << Output::graph_too_large << QStringLiteral("; the limit is 10.");
}

void TestLocaleIndependence::writesTheSameOutputs() {
    QFETCH(Output, output);
    QFETCH(QString, excerpt);
    const QString in_c = qs(written(output));
    QVERIFY2(in_c.contains(excerpt), qPrintable(in_c.left(2000)));
    use_locale(german);
    QCOMPARE(qs(written(output)), in_c);
}

QTEST_APPLESS_MAIN(TestLocaleIndependence)
#include "test_locale_independence.moc"
