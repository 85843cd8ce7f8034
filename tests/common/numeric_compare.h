#pragma once
// Helpers shared by the test suites. Doubles that must be exact are compared with QCOMPARE_EQ (operator==, no fuzz);
// values checked against published numbers use an explicit relative tolerance, stated at each use.

#include <QString>
#include <QTest>

#include <cmath>
#include <string_view>

namespace parasight::testing {

inline QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

[[nodiscard]] inline bool within_relative(double actual, double expected, double tolerance) {
    return std::fabs(actual - expected) <= tolerance * std::fabs(expected);
}

[[nodiscard]] inline QString relative_failure(double actual, double expected, double tolerance) {
    return QStringLiteral("%1 differs from %2 by %3 %, more than the allowed %4 %")
        .arg(actual, 0, 'g', 17)
        .arg(expected, 0, 'g', 17)
        .arg(100.0 * std::fabs(actual - expected) / std::fabs(expected), 0, 'g', 4)
        .arg(100.0 * tolerance, 0, 'g', 4);
}

}  // namespace parasight::testing

// QVERIFY that `actual` is within `tolerance` (a fraction, 0.02 = 2 %) of `expected`, printing both on failure.
#define PS_COMPARE_RELATIVE(actual, expected, tolerance)                                                  \
    QVERIFY2(::parasight::testing::within_relative((actual), (expected), (tolerance)),                    \
             qPrintable(::parasight::testing::relative_failure((actual), (expected), (tolerance))))
