// Quantities with units (core/units/quantity.h) and the did-you-mean helpers they and the scenario reader use for
// messages.
// Conventions under test (docs/scenario-reference.md "Units"): GB = 10^9 B, GiB = 2^30 B, Gb = 10^9 bit = 1.25e8 B.

#include "common/did_you_mean.h"
#include "scenario/scenario.h"
#include "units/quantity.h"

#include "numeric_compare.h"

#include <QTest>

#include <array>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

using parasight::testing::qs;
using Dim = parasight::units::Dimension;

Q_DECLARE_METATYPE(parasight::units::Dimension)

namespace {

constexpr double KiB = 1024.0;
constexpr double MiB = 1024.0 * KiB;
constexpr double GiB = 1024.0 * MiB;
constexpr double TiB = 1024.0 * GiB;

QString parse_error(std::string_view text, Dim dimension) {
    const auto parsed = parasight::units::parse_quantity(text, dimension);
    return parsed ? QString() : qs(parsed.error());
}

}  // namespace

class TestUnits : public QObject {
    Q_OBJECT

private slots:
    void parsesEveryUnitExactly_data();
    void parsesEveryUnitExactly();
    void parsesSubSecondTimesExactly_data();
    void parsesSubSecondTimesExactly();
    void bareNumberNamesTheExpectedUnits_data();
    void bareNumberNamesTheExpectedUnits();
    void bareNumberMessageInFull();
    void emptyValueIsAnError_data();
    void emptyValueIsAnError();
    void textWithoutNumberIsAnError();
    void unknownUnitSuggestsTheClosest_data();
    void unknownUnitSuggestsTheClosest();
    void unknownUnitWithoutPlausibleMatch();
    void unitOfTheWrongDimension_data();
    void unitOfTheWrongDimension();
    void nonFiniteNumberIsAnError_data();
    void nonFiniteNumberIsAnError();
    void overflowIsAnError_data();
    void overflowIsAnError();
    void formatChoosesTheReadableSpelling_data();
    void formatChoosesTheReadableSpelling();
    void readableFormatRoundsToSignificantDigits_data();
    void readableFormatRoundsToSignificantDigits();
    void formatPrefersExactSubSecondUnits_data();
    void formatPrefersExactSubSecondUnits();
    void formatRoundTrips_data();
    void formatRoundTrips();
    void messagesHelpers();
    void editDistance_data();
    void editDistance();
    void closestMatch_data();
    void closestMatch();
    void didYouMeanSuffix();
    void suggestions_data();
    void suggestions();
    void joinAlternatives_data();
    void joinAlternatives();
};

void TestUnits::parsesEveryUnitExactly_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<Dim>("dimension");
    QTest::addColumn<double>("expected");

    // Sizes: decimal prefixes are powers of 10, binary ones powers of 2.
    QTest::newRow("1 B") << "1 B" << Dim::size << 1.0;
    QTest::newRow("1 KB") << "1 KB" << Dim::size << 1e3;
    QTest::newRow("1 MB") << "1 MB" << Dim::size << 1e6;
    QTest::newRow("1 GB") << "1 GB" << Dim::size << 1e9;
    QTest::newRow("1 TB") << "1 TB" << Dim::size << 1e12;
    QTest::newRow("1 KiB") << "1 KiB" << Dim::size << 1024.0;
    QTest::newRow("1 MiB") << "1 MiB" << Dim::size << 1048576.0;
    QTest::newRow("1 GiB") << "1 GiB" << Dim::size << 1073741824.0;
    QTest::newRow("1 TiB") << "1 TiB" << Dim::size << 1099511627776.0;
    QTest::newRow("80 GiB") << "80 GiB" << Dim::size << 85899345920.0;  // 80 · 2^30
    QTest::newRow("80GiB (no space)") << "80GiB" << Dim::size << 85899345920.0;
    QTest::newRow("1.5 GB") << "1.5 GB" << Dim::size << 1.5e9;
    QTest::newRow("0.5 KiB") << "0.5 KiB" << Dim::size << 512.0;
    QTest::newRow("padded") << " \t16 MiB \t" << Dim::size << 16777216.0;  // 16 · 2^20
    QTest::newRow("2e0 TB") << "2e0 TB" << Dim::size << 2e12;

    // Bandwidths in bytes per second.
    QTest::newRow("1 B/s") << "1 B/s" << Dim::bandwidth << 1.0;
    QTest::newRow("1 KB/s") << "1 KB/s" << Dim::bandwidth << 1e3;
    QTest::newRow("1 MB/s") << "1 MB/s" << Dim::bandwidth << 1e6;
    QTest::newRow("1 GB/s") << "1 GB/s" << Dim::bandwidth << 1e9;
    QTest::newRow("1 TB/s") << "1 TB/s" << Dim::bandwidth << 1e12;
    QTest::newRow("1 KiB/s") << "1 KiB/s" << Dim::bandwidth << 1024.0;
    QTest::newRow("1 MiB/s") << "1 MiB/s" << Dim::bandwidth << 1048576.0;
    QTest::newRow("1 GiB/s") << "1 GiB/s" << Dim::bandwidth << 1073741824.0;
    QTest::newRow("1 TiB/s") << "1 TiB/s" << Dim::bandwidth << 1099511627776.0;
    QTest::newRow("300 GB/s") << "300 GB/s" << Dim::bandwidth << 3e11;
    QTest::newRow("300GB/s (no space)") << "300GB/s" << Dim::bandwidth << 3e11;
    QTest::newRow("1.5e3 GB/s") << "1.5e3 GB/s" << Dim::bandwidth << 1.5e12;  // 1500 · 10^9
    QTest::newRow("1.5E3 GB/s") << "1.5E3 GB/s" << Dim::bandwidth << 1.5e12;
    // Bandwidths in bits per second: divide by 8.
    QTest::newRow("1 Kb/s") << "1 Kb/s" << Dim::bandwidth << 125.0;            // 10^3 / 8
    QTest::newRow("8 Kb/s") << "8 Kb/s" << Dim::bandwidth << 1000.0;           // 8 · 10^3 / 8
    QTest::newRow("1 Mb/s") << "1 Mb/s" << Dim::bandwidth << 125000.0;         // 10^6 / 8
    QTest::newRow("1 Gb/s") << "1 Gb/s" << Dim::bandwidth << 1.25e8;           // 10^9 / 8
    QTest::newRow("1 Tb/s") << "1 Tb/s" << Dim::bandwidth << 1.25e11;          // 10^12 / 8
    QTest::newRow("25 Gb/s") << "25 Gb/s" << Dim::bandwidth << 3.125e9;        // 25 · 10^9 / 8
    QTest::newRow("400Gb/s (no space)") << "400Gb/s" << Dim::bandwidth << 5e10;  // 400 · 10^9 / 8

    // Times. These values are exact in binary floating point both ways (1 · 10^-k, halves, 1.5 us).
    QTest::newRow("1 ns") << "1 ns" << Dim::time << 1e-9;
    QTest::newRow("1 us") << "1 us" << Dim::time << 1e-6;
    QTest::newRow("1 µs (micro sign)") << "1 \u00b5s" << Dim::time << 1e-6;
    QTest::newRow("1 μs (greek mu)") << "1 \u03bcs" << Dim::time << 1e-6;
    QTest::newRow("1 ms") << "1 ms" << Dim::time << 1e-3;
    QTest::newRow("1 s") << "1 s" << Dim::time << 1.0;
    QTest::newRow("1.5 us") << "1.5 us" << Dim::time << 1.5e-6;
    QTest::newRow("1.5us (no space)") << "1.5us" << Dim::time << 1.5e-6;
    QTest::newRow("1.5µs (no space)") << "1.5\u00b5s" << Dim::time << 1.5e-6;
    QTest::newRow("0.5 ms") << "0.5 ms" << Dim::time << 5e-4;
    QTest::newRow("2 s") << "2 s" << Dim::time << 2.0;
    QTest::newRow("1.5e-6 s") << "1.5e-6 s" << Dim::time << 1.5e-6;
    QTest::newRow("1.5e3 ns") << "1.5e3 ns" << Dim::time << 1.5e-6;

    // Compute rates.
    QTest::newRow("1 FLOP/s") << "1 FLOP/s" << Dim::flop_rate << 1.0;
    QTest::newRow("1 KFLOP/s") << "1 KFLOP/s" << Dim::flop_rate << 1e3;
    QTest::newRow("1 MFLOP/s") << "1 MFLOP/s" << Dim::flop_rate << 1e6;
    QTest::newRow("1 GFLOP/s") << "1 GFLOP/s" << Dim::flop_rate << 1e9;
    QTest::newRow("1 TFLOP/s") << "1 TFLOP/s" << Dim::flop_rate << 1e12;
    QTest::newRow("1 PFLOP/s") << "1 PFLOP/s" << Dim::flop_rate << 1e15;
    QTest::newRow("312 TFLOP/s") << "312 TFLOP/s" << Dim::flop_rate << 3.12e14;
    QTest::newRow("19.5TFLOP/s (no space)") << "19.5TFLOP/s" << Dim::flop_rate << 1.95e13;
}

void TestUnits::parsesEveryUnitExactly() {
    QFETCH(QString, text);
    QFETCH(Dim, dimension);
    QFETCH(double, expected);
    const std::string utf8 = text.toStdString();
    const auto parsed = parasight::units::parse_quantity(utf8, dimension);
    QVERIFY2(parsed.has_value(), parsed ? "" : parsed.error().c_str());
    QCOMPARE_EQ(*parsed, expected);  // exact: no fuzz
}

// Sub-second units divide by the exact 10^k: multiplying by the inexact 10^-k would round twice, reading "5 us" as
// 4.9999999999999996e-06 and making "1000 ns" differ from "1 us".
void TestUnits::parsesSubSecondTimesExactly_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("expected");
    QTest::newRow("5 us") << "5 us" << 5e-6;           // 5 · 1e-6 = 4.9999999999999996e-06 today
    QTest::newRow("10 us") << "10 us" << 1e-5;         // 9.999999999999999e-06 today
    QTest::newRow("33 us") << "33 us" << 3.3e-5;       // 3.2999999999999996e-05 today
    QTest::newRow("3 ns") << "3 ns" << 3e-9;           // 3.0000000000000004e-09 today
    QTest::newRow("100 ns") << "100 ns" << 1e-7;       // 1.0000000000000001e-07 today
    QTest::newRow("1000 ns") << "1000 ns" << 1e-6;     // should equal "1 us"; 1.0000000000000002e-06 today
}

void TestUnits::parsesSubSecondTimesExactly() {
    QFETCH(QString, text);
    QFETCH(double, expected);
    const auto parsed = parasight::units::parse_quantity(text.toStdString(), Dim::time);
    QVERIFY(parsed.has_value());
    QCOMPARE_EQ(*parsed, expected);
}

void TestUnits::bareNumberNamesTheExpectedUnits_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<Dim>("dimension");
    QTest::addColumn<QString>("noun");
    QTest::addColumn<QString>("units");  // the printed unit list, without the read-only aliases µs and μs
    QTest::newRow("size") << "80" << Dim::size << "expected a size with a unit, e.g. '80 GiB'"
                          << "(units: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)";
    QTest::newRow("bandwidth") << "300" << Dim::bandwidth << "expected a bandwidth with a unit, e.g. '300 GB/s'"
                               << "(units: B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s, Kb/s, Mb/s, Gb/s, "
                                  "Tb/s)";
    QTest::newRow("time") << "1.5" << Dim::time << "expected a time with a unit, e.g. '1.5 us'"
                          << "(units: ns, us, ms, s)";
    QTest::newRow("compute rate") << "312e12" << Dim::flop_rate
                                  << "expected a compute rate with a unit, e.g. '312 TFLOP/s'"
                                  << "(units: FLOP/s, KFLOP/s, MFLOP/s, GFLOP/s, TFLOP/s, PFLOP/s)";
}

void TestUnits::bareNumberNamesTheExpectedUnits() {
    QFETCH(QString, text);
    QFETCH(Dim, dimension);
    QFETCH(QString, noun);
    QFETCH(QString, units);
    const QString error = parse_error(text.toStdString(), dimension);
    QVERIFY2(error.startsWith("'" + text + "' has no unit; "), qPrintable(error));
    QVERIFY2(error.contains(noun), qPrintable(error));
    QVERIFY2(error.endsWith(units), qPrintable(error));
}

void TestUnits::bareNumberMessageInFull() {
    // Pins the whole message once, so a change of wording is a deliberate one.
    QCOMPARE(parse_error("300", Dim::bandwidth),
             QStringLiteral("'300' has no unit; expected a bandwidth with a unit, e.g. '300 GB/s' (units: B/s, KB/s, "
                            "MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s, Kb/s, Mb/s, Gb/s, Tb/s)"));
}

void TestUnits::emptyValueIsAnError_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << "";
    QTest::newRow("spaces") << "   ";
    QTest::newRow("tab") << "\t";
}

void TestUnits::emptyValueIsAnError() {
    QFETCH(QString, text);
    const QString error = parse_error(text.toStdString(), Dim::size);
    QVERIFY2(error.startsWith("empty value; expected a size with a unit, e.g. '80 GiB'"), qPrintable(error));
}

void TestUnits::textWithoutNumberIsAnError() {
    const QString unit_only = parse_error("GB/s", Dim::bandwidth);
    QVERIFY2(unit_only.startsWith("'GB/s' does not start with a number; expected a bandwidth"), qPrintable(unit_only));
    const QString word = parse_error("fast", Dim::bandwidth);
    QVERIFY2(word.startsWith("'fast' does not start with a number; expected a bandwidth"), qPrintable(word));
}

void TestUnits::unknownUnitSuggestsTheClosest_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<Dim>("dimension");
    QTest::addColumn<QString>("expected");
    // "Gbs": one insertion from "Gb/s", two edits from "GB/s"; a 3-letter word allows 1 edit.
    QTest::newRow("Gbs") << "300 Gbs" << Dim::bandwidth << "unknown unit 'Gbs' (did you mean 'Gb/s'?); ";
    // "gb/s" matches "GB/s" and "Gb/s" ignoring case; GB/s is listed first, so it wins.
    QTest::newRow("gb/s") << "300 gb/s" << Dim::bandwidth << "unknown unit 'gb/s' (did you mean 'GB/s'?); ";
    QTest::newRow("gib") << "80 gib" << Dim::size << "unknown unit 'gib' (did you mean 'GiB'?); ";
    QTest::newRow("uss") << "1.5 uss" << Dim::time << "unknown unit 'uss' (did you mean 'us'?); ";
    // "TFLOPS" (6 letters: 2 edits allowed) → insert '/', lower-case 'S'.
    QTest::newRow("TFLOPS") << "312 TFLOPS" << Dim::flop_rate << "unknown unit 'TFLOPS' (did you mean 'TFLOP/s'?); ";
}

void TestUnits::unknownUnitSuggestsTheClosest() {
    QFETCH(QString, text);
    QFETCH(Dim, dimension);
    QFETCH(QString, expected);
    const QString error = parse_error(text.toStdString(), dimension);
    QVERIFY2(error.startsWith(expected), qPrintable(error));
    QVERIFY2(error.contains("expected " + qs(parasight::units::dimension_noun(dimension))), qPrintable(error));
}

void TestUnits::unknownUnitWithoutPlausibleMatch() {
    const QString error = parse_error("5 parsecs", Dim::size);
    QVERIFY2(error.startsWith("unknown unit 'parsecs'; expected a size with a unit"), qPrintable(error));
    QVERIFY(!error.contains("did you mean"));
}

void TestUnits::unitOfTheWrongDimension_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<Dim>("dimension");
    QTest::addColumn<QString>("expected");
    QTest::newRow("size for bandwidth") << "80 GiB" << Dim::bandwidth
                                        << "'GiB' is a unit of a size, not of a bandwidth; expected a bandwidth";
    QTest::newRow("GB for bandwidth") << "300 GB" << Dim::bandwidth
                                      << "'GB' is a unit of a size, not of a bandwidth; expected a bandwidth";
    QTest::newRow("time for size") << "1.5 us" << Dim::size << "'us' is a unit of a time, not of a size; expected a size";
    QTest::newRow("bandwidth for time") << "300 GB/s" << Dim::time
                                        << "'GB/s' is a unit of a bandwidth, not of a time; expected a time";
    QTest::newRow("rate for bandwidth") << "312 TFLOP/s" << Dim::bandwidth
                                        << "'TFLOP/s' is a unit of a compute rate, not of a bandwidth; expected";
}

void TestUnits::unitOfTheWrongDimension() {
    QFETCH(QString, text);
    QFETCH(Dim, dimension);
    QFETCH(QString, expected);
    const QString error = parse_error(text.toStdString(), dimension);
    QVERIFY2(error.startsWith(expected), qPrintable(error));
}

void TestUnits::nonFiniteNumberIsAnError_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("inf") << "inf GB/s";
    QTest::newRow("-inf") << "-inf GB/s";
    QTest::newRow("infinity") << "infinity GB/s";
    QTest::newRow("nan") << "nan GB/s";
}

void TestUnits::nonFiniteNumberIsAnError() {
    QFETCH(QString, text);
    const QString error = parse_error(text.toStdString(), Dim::bandwidth);
    QVERIFY2(error.startsWith("'" + text + "' is not a finite number; expected a bandwidth"), qPrintable(error));
}

void TestUnits::overflowIsAnError_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<Dim>("dimension");
    QTest::addColumn<QString>("expected");
    // The number is finite, the product with the unit is not: 1e300 · 2^40 > DBL_MAX ≈ 1.8e308.
    QTest::newRow("1e300 TiB") << "1e300 TiB" << Dim::size << "'1e300 TiB' is too large";
    QTest::newRow("1e300 PFLOP/s") << "1e300 PFLOP/s" << Dim::flop_rate << "'1e300 PFLOP/s' is too large";
    // The number itself overflows a double. (The message calls it "not a number"; it is one, only too large.)
    QTest::newRow("1e400 B") << "1e400 B" << Dim::size << "'1e400 B' ";
}

void TestUnits::overflowIsAnError() {
    QFETCH(QString, text);
    QFETCH(Dim, dimension);
    QFETCH(QString, expected);
    const auto parsed = parasight::units::parse_quantity(text.toStdString(), dimension);
    QVERIFY(!parsed.has_value());
    QVERIFY2(qs(parsed.error()).startsWith(expected), parsed.error().c_str());
}

void TestUnits::formatChoosesTheReadableSpelling_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<Dim>("dimension");
    QTest::addColumn<QString>("expected");
    QTest::newRow("80 GiB") << 85899345920.0 << Dim::size << "80 GiB";                // 80 · 2^30
    QTest::newRow("300 GB/s") << 3e11 << Dim::bandwidth << "300 GB/s";                // shorter than "2400 Gb/s"
    QTest::newRow("25 Gb/s") << 3.125e9 << Dim::bandwidth << "25 Gb/s";               // shorter than "3.125 GB/s"
    QTest::newRow("1.5 us") << 1.5e-6 << Dim::time << "1.5 us";                        // not "1500 ns", not "1.5e-06 s"
    QTest::newRow("312 TFLOP/s") << 3.12e14 << Dim::flop_rate << "312 TFLOP/s";       // 0.312 PFLOP/s is < 1
    QTest::newRow("1 GB/s beats 8 Gb/s") << 1e9 << Dim::bandwidth << "1 GB/s";        // same length: bytes win
    QTest::newRow("1 Gb/s beats 125 MB/s") << 1.25e8 << Dim::bandwidth << "1 Gb/s";   // shorter wins, even in bits
    QTest::newRow("1 KiB") << 1024.0 << Dim::size << "1 KiB";
    QTest::newRow("1536 B") << 1536.0 << Dim::size << "1536 B";                       // "1.5 KiB" is longer
    QTest::newRow("1 MB") << 1e6 << Dim::size << "1 MB";
    QTest::newRow("zero") << 0.0 << Dim::size << "0 B";                               // prefixed units need >= 1
    QTest::newRow("half a byte") << 0.5 << Dim::size << "0.5 B";
    QTest::newRow("negative") << -3e11 << Dim::bandwidth << "-300 GB/s";
    QTest::newRow("2.5 ms") << 2.5e-3 << Dim::time << "2.5 ms";
    QTest::newRow("1 ns") << 1e-9 << Dim::time << "1 ns";
    QTest::newRow("60 s") << 60.0 << Dim::time << "60 s";
    QTest::newRow("19.5 TFLOP/s") << 1.95e13 << Dim::flop_rate << "19.5 TFLOP/s";
    // "1e+18 FLOP/s" and "1000 PFLOP/s" are both 12 characters: the larger unit wins the tie.
    QTest::newRow("1000 PFLOP/s") << 1e18 << Dim::flop_rate << "1000 PFLOP/s";
}

void TestUnits::formatChoosesTheReadableSpelling() {
    QFETCH(double, value);
    QFETCH(Dim, dimension);
    QFETCH(QString, expected);
    QCOMPARE(qs(parasight::units::format_quantity(value, dimension)), expected);
}

void TestUnits::readableFormatRoundsToSignificantDigits_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<Dim>("dimension");
    QTest::addColumn<QString>("expected");
    QTest::newRow("4.392 ms") << 0.00439213 << Dim::time << "4.392 ms";
    QTest::newRow("260 GB/s") << 2.6e11 << Dim::bandwidth << "260 GB/s";
    QTest::newRow("911.4 s") << 911.43 << Dim::time << "911.4 s";
    QTest::newRow("9999 s") << 9999.4 << Dim::time << "9999 s";
    // Past seconds, the largest time unit, whole seconds rather than "1.235e+04 s".
    QTest::newRow("12345 s") << 12345.4 << Dim::time << "12345 s";
    QTest::newRow("-12346 s") << -12345.6 << Dim::time << "-12346 s";
    QTest::newRow("1000 PFLOP/s") << 1e18 << Dim::flop_rate << "1000 PFLOP/s";
    QTest::newRow("20000 PFLOP/s") << 2e19 << Dim::flop_rate << "20000 PFLOP/s";
    // Whole seconds up to 10^15; past it an exponent (1e64 s printed 64 NUL bytes: to_chars ran out of room).
    QTest::newRow("999999999999999 s") << 999999999999999.0 << Dim::time << "999999999999999 s";
    QTest::newRow("1e+15 s") << 1e15 << Dim::time << "1e+15 s";
    QTest::newRow("1e+64 s") << 1e64 << Dim::time << "1e+64 s";
    QTest::newRow("-3.25e+300 s") << -3.25e300 << Dim::time << "-3.25e+300 s";
    QTest::newRow("largest double") << std::numeric_limits<double>::max() << Dim::size << "1.798e+296 TB";
    // No unit makes these a quantity: said in words.
    QTest::newRow("infinite") << std::numeric_limits<double>::infinity() << Dim::time << "infinite";
    QTest::newRow("minus infinite") << -std::numeric_limits<double>::infinity() << Dim::time << "minus infinite";
    QTest::newRow("not a number") << std::numeric_limits<double>::quiet_NaN() << Dim::bandwidth << "not a number";
}

void TestUnits::readableFormatRoundsToSignificantDigits() {
    QFETCH(double, value);
    QFETCH(Dim, dimension);
    QFETCH(QString, expected);
    QCOMPARE(qs(parasight::units::format_readable(value, dimension)), expected);
}

// The format side of parsesSubSecondTimesExactly: 5e-6 · 10^6 = 5 exactly, so 5e-6 prints as "5 us", not in seconds.
void TestUnits::formatPrefersExactSubSecondUnits_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("5 us") << 5e-6 << "5 us";        // "5e-06 s" today
    QTest::newRow("10 us") << 1e-5 << "10 us";      // "1e-05 s" today
    QTest::newRow("3 ns") << 3e-9 << "3 ns";        // "3e-09 s" today
    QTest::newRow("250 ns") << 2.5e-7 << "250 ns";  // "2.5e-07 s" today
}

void TestUnits::formatPrefersExactSubSecondUnits() {
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(qs(parasight::units::format_quantity(value, Dim::time)), expected);
}

void TestUnits::formatRoundTrips_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<Dim>("dimension");
    const std::array<double, 13> sizes{0.0, 1.0, 1023.0, 1024.0, 1536.0, 1e6, 85899345920.0, 1.5e9, 1e15,
                                       123456789.125, 1e-3, 7.0 * TiB + 3.0, std::numeric_limits<double>::max()};
    for (double v : sizes) QTest::addRow("size %.17g", v) << v << Dim::size;
    const std::array<double, 10> bandwidths{3e11, 3.125e9, 1e9, 1.25e8, 5e10, 1.6e12, 12345.678, 50.0 * GiB,
                                            1000.0 * GiB, -2e9};
    for (double v : bandwidths) QTest::addRow("bandwidth %.17g", v) << v << Dim::bandwidth;
    const std::array<double, 12> times{1.5e-6, 5e-6, 1e-9, 3e-9, 0.1, 1e-3, 2.5e-7, 7.3e-5, 1e-12, 3600.0,
                                       1.234567e-5, 4392.85e-6};
    for (double v : times) QTest::addRow("time %.17g", v) << v << Dim::time;
    const std::array<double, 5> rates{3.12e14, 1.95e13, 1e15, 1e18, 989.4e12};
    for (double v : rates) QTest::addRow("rate %.17g", v) << v << Dim::flop_rate;
    QTest::addRow("size %g MiB", 896.0) << 896.0 * MiB << Dim::size;
}

void TestUnits::formatRoundTrips() {
    QFETCH(double, value);
    QFETCH(Dim, dimension);
    const std::string text = parasight::units::format_quantity(value, dimension);
    const auto parsed = parasight::units::parse_quantity(text, dimension);
    QVERIFY2(parsed.has_value(), qPrintable(qs(text) + ": " + (parsed ? QString() : qs(parsed.error()))));
    QCOMPARE_EQ(*parsed, value);  // exact, as the header promises for every finite value
}

void TestUnits::messagesHelpers() {
    using parasight::units::accepted_units;
    using parasight::units::dimension_noun;
    using parasight::units::example_value;
    QCOMPARE(qs(dimension_noun(Dim::size)), QStringLiteral("a size"));
    QCOMPARE(qs(dimension_noun(Dim::bandwidth)), QStringLiteral("a bandwidth"));
    QCOMPARE(qs(dimension_noun(Dim::time)), QStringLiteral("a time"));
    QCOMPARE(qs(dimension_noun(Dim::flop_rate)), QStringLiteral("a compute rate"));
    QCOMPARE(qs(accepted_units(Dim::time)), QStringLiteral("ns, us, ms, s"));  // aliases are read, not listed
    // Every example parses, and prints back as itself.
    for (Dim d : {Dim::size, Dim::bandwidth, Dim::time, Dim::flop_rate}) {
        const auto parsed = parasight::units::parse_quantity(example_value(d), d);
        QVERIFY2(parsed.has_value(), example_value(d).data());
        QCOMPARE(qs(parasight::units::format_quantity(*parsed, d)), qs(example_value(d)));
    }
}

void TestUnits::editDistance_data() {
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<int>("expected");
    QTest::newRow("equal") << "abc" << "abc" << 0;
    QTest::newRow("both empty") << "" << "" << 0;
    QTest::newRow("from empty") << "" << "abc" << 3;       // three insertions
    QTest::newRow("to empty") << "abc" << "" << 3;         // three deletions
    QTest::newRow("kitten/sitting") << "kitten" << "sitting" << 3;  // k→s, e→i, +g
    QTest::newRow("case-sensitive") << "a" << "A" << 1;
    QTest::newRow("Gbs/Gb/s") << "Gbs" << "Gb/s" << 1;     // insert '/'
    QTest::newRow("Gbs/GB/s") << "Gbs" << "GB/s" << 2;     // b→B, insert '/'
    QTest::newRow("transposition") << "tp" << "pt" << 1;   // a swap of neighbours is one edit
    QTest::newRow("transposition inside") << "modle" << "model" << 1;
}

void TestUnits::editDistance() {
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(int, expected);
    QCOMPARE(parasight::edit_distance(a.toStdString(), b.toStdString()), static_cast<std::size_t>(expected));
}

void TestUnits::closestMatch_data() {
    QTest::addColumn<QString>("word");
    QTest::addColumn<QString>("expected");  // empty: no suggestion
    // Candidates: tp, dp, pp, schedule, global_batch (see closestMatch()).
    QTest::newRow("tpp → tp (first of the distance-1 ties)") << "tpp" << "tp";  // tp and pp are both 1 away
    QTest::newRow("case-insensitive") << "TP" << "tp";
    QTest::newRow("SCHEDULE") << "SCHEDULE" << "schedule";
    QTest::newRow("schedul (7 letters, 2 allowed)") << "schedul" << "schedule";
    QTest::newRow("shedle (6 letters, 2 allowed)") << "shedle" << "schedule";  // +c, +u
    QTest::newRow("sch begins schedule") << "sch" << "schedule";                  // 5 edits away, but a prefix
    QTest::newRow("scx (3 letters, 1 allowed)") << "scx" << "";                   // 6 edits from schedule
    QTest::newRow("glbal_bach (10 letters, 3 allowed)") << "glbal_bach" << "global_batch";  // +o, +t
    QTest::newRow("glbl_btch (9 letters, 3 allowed)") << "glbl_btch" << "global_batch";       // +o, +a, +a
    QTest::newRow("gxxbxl_bxtch (12 letters, capped at 3)") << "gxxbxl_bxtch" << "";        // 4 substitutions
    QTest::newRow("gl_ba (5 letters, 1 allowed)") << "gl_ba" << "";
    QTest::newRow("sxhxdxle (8 letters, 2 allowed, 3 away)") << "sxhxdxle" << "";  // x→c, x→e, x→u
    QTest::newRow("xyz") << "xyz" << "";
}

void TestUnits::closestMatch() {
    QFETCH(QString, word);
    QFETCH(QString, expected);
    const std::array<std::string_view, 5> candidates{"tp", "dp", "pp", "schedule", "global_batch"};
    const auto match = parasight::closest_match(word.toStdString(), candidates);
    QCOMPARE(match.has_value(), !expected.isEmpty());
    if (match) QCOMPARE(qs(*match), expected);
}

void TestUnits::didYouMeanSuffix() {
    const std::array<std::string_view, 3> candidates{"tp", "dp", "pp"};
    QCOMPARE(qs(parasight::did_you_mean_suffix("tpp", candidates)), QStringLiteral(" (did you mean 'tp'?)"));
    QCOMPARE(qs(parasight::did_you_mean_suffix("zzzz", candidates)), QString());
}

void TestUnits::suggestions_data() {
    QTest::addColumn<QString>("word");
    QTest::addColumn<QStringList>("candidates");
    QTest::addColumn<QString>("expected");  // the did-you-mean suffix
    const QStringList devices{"a10", "a100-40gb", "a100-80gb", "a40", "h100-sxm", "h200", "tpu-v4", "v100"};
    const QStringList models{"bert-large", "gpt2-medium", "gpt2-small", "gpt2-xl", "gpt3-175b", "llama3-405b"};
    const QStringList time_units{"ns", "us", "\u00b5s", "ms", "s"};
    const QStringList bandwidth_units{"B/s", "GB/s", "Gb/s", "GiB/s"};
    const QStringList dtypes{"fp32", "tf32", "fp16", "bf16", "fp8"};
    // 1: equal ignoring case, before any prefix ("A10" also begins a100-40gb).
    QTest::newRow("A10 is a10") << "A10" << devices << " (did you mean 'a10'?)";
    // 3: a prefix, ignoring case, before the edit distance: v100 is one edit from A100.
    QTest::newRow("A100 begins two ids") << "A100" << devices << " (did you mean 'a100-40gb' or 'a100-80gb'?)";
    QTest::newRow("a100-80 begins one") << "a100-80" << devices << " (did you mean 'a100-80gb'?)";
    QTest::newRow("gpt3 begins gpt3-175b") << "gpt3" << models << " (did you mean 'gpt3-175b'?)";
    QTest::newRow("gpt begins four, in order") << "gpt" << models
                                               << " (did you mean 'gpt2-medium', 'gpt2-small', 'gpt2-xl' or "
                                                  "'gpt3-175b'?)";
    QTest::newRow("one letter begins nothing") << "a" << devices << "";
    // 4: contained, for 3 characters or more.
    QTest::newRow("175b is inside gpt3-175b") << "175b" << models << " (did you mean 'gpt3-175b'?)";
    QTest::newRow("batch is inside two keys") << "batch" << QStringList{"global_batch", "micro_batch", "dtype"}
                                              << " (did you mean 'global_batch' or 'micro_batch'?)";
    // 2: aliases, which no edit distance would find.
    QTest::newRow("sec") << "sec" << time_units << " (did you mean 's'?)";
    QTest::newRow("usec") << "usec" << time_units << " (did you mean 'us'?)";
    QTest::newRow("msec") << "msec" << time_units << " (did you mean 'ms'?)";
    QTest::newRow("nsec") << "nsec" << time_units << " (did you mean 'ns'?)";
    QTest::newRow("Gbps") << "Gbps" << bandwidth_units << " (did you mean 'Gb/s'?)";
    QTest::newRow("GBps") << "GBps" << bandwidth_units << " (did you mean 'GB/s'?)";
    QTest::newRow("gbps, either") << "gbps" << bandwidth_units << " (did you mean 'GB/s' or 'Gb/s'?)";
    QTest::newRow("sec for a bandwidth") << "sec" << bandwidth_units << "";  // 's' is not a candidate
    QTest::newRow("bfloat16") << "bfloat16" << dtypes << " (did you mean 'bf16'?)";
    QTest::newRow("float16") << "float16" << dtypes << " (did you mean 'fp16'?)";
    QTest::newRow("half") << "half" << dtypes << " (did you mean 'fp16'?)";
    QTest::newRow("float32") << "float32" << dtypes << " (did you mean 'fp32'?)";
    // A word far longer than any candidate is no typo of one (and costs no edit-distance table).
    QTest::newRow("long word") << QString(100000, u'x') << devices << "";
}

void TestUnits::suggestions() {
    QFETCH(QString, word);
    QFETCH(QStringList, candidates);
    QFETCH(QString, expected);
    std::vector<std::string> storage;
    for (const QString& candidate : candidates) storage.push_back(candidate.toStdString());
    const std::vector<std::string_view> views(storage.begin(), storage.end());
    // The aliases the scenario reader passes: units' and dtypes'.
    std::vector<parasight::SuggestionAlias> aliases(parasight::units::unit_suggestion_aliases.begin(),
                                                    parasight::units::unit_suggestion_aliases.end());
    aliases.insert(aliases.end(), parasight::dtype_suggestion_aliases.begin(),
                   parasight::dtype_suggestion_aliases.end());
    QCOMPARE(qs(parasight::did_you_mean_suffix(word.toStdString(), views, aliases)), expected);
}

void TestUnits::joinAlternatives_data() {
    QTest::addColumn<QStringList>("words");
    QTest::addColumn<QString>("expected");
    QTest::newRow("none") << QStringList{} << "";
    QTest::newRow("one") << QStringList{"ring"} << "ring";
    QTest::newRow("two") << QStringList{"ring", "switch"} << "ring or switch";
    QTest::newRow("three") << QStringList{"ring", "fully_connected", "switch"} << "ring, fully_connected or switch";
}

void TestUnits::joinAlternatives() {
    QFETCH(QStringList, words);
    QFETCH(QString, expected);
    std::vector<std::string> storage;
    for (const QString& w : words) storage.push_back(w.toStdString());
    const std::vector<std::string_view> views(storage.begin(), storage.end());
    QCOMPARE(qs(parasight::join_alternatives(views)), expected);
}

QTEST_APPLESS_MAIN(TestUnits)
#include "test_units.moc"
