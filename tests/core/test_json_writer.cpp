// The JSON writer (export/json_writer.h): doubles read back as floating point with every reader, exactly; non-finite
// numbers become null; strings are escaped; the layout is deterministic.

#include "export/json_writer.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <limits>

using parasight::JsonWriter;

namespace {

QString written_number(double number) {
    JsonWriter json(false);
    json.value(number);
    return QString::fromStdString(json.text());
}

}  // namespace

class TestJsonWriter : public QObject {
    Q_OBJECT

private slots:
    void doublesLookLikeDoubles_data();
    void doublesLookLikeDoubles();
    void integersStayIntegers();
    void stringsAreEscaped();
    void objectsAndArrays();
};

void TestJsonWriter::doublesLookLikeDoubles_data() {
    QTest::addColumn<double>("number");
    QTest::addColumn<QString>("text");
    // Whole doubles get ".0", so that a reader that types numbers by their text (Python's json, jq's integers) sees
    // a float; the rest keep their shortest round-trip form.
    QTest::newRow("zero") << 0.0 << QStringLiteral("0.0");
    QTest::newRow("negative zero") << -0.0 << QStringLiteral("-0.0");
    QTest::newRow("one") << 1.0 << QStringLiteral("1.0");
    QTest::newRow("bytes") << 1130287104.0 << QStringLiteral("1130287104.0");
    QTest::newRow("fraction") << 0.4236612148272789 << QStringLiteral("0.4236612148272789");
    QTest::newRow("negative") << -2.5 << QStringLiteral("-2.5");
    // 1.2345678901234567e19: the fixed form, 20 digits, is shorter than the exponent form (23 characters) and is
    // written as the double's exact value, 12345678901234567168 (a multiple of 2^11, the spacing of doubles there);
    // past 2^63 ≈ 9.22e18 an integer reader would overflow.
    QTest::newRow("20 digits") << 1.2345678901234567e19 << QStringLiteral("12345678901234567168.0");
    // An exponent already marks a float.
    QTest::newRow("large exponent") << 1e300 << QStringLiteral("1e+300");
    QTest::newRow("small exponent") << 1.5e-9 << QStringLiteral("1.5e-09");
    QTest::newRow("largest double") << std::numeric_limits<double>::max()
                                    << QStringLiteral("1.7976931348623157e+308");
    // JSON has no NaN or infinity.
    QTest::newRow("NaN") << std::nan("") << QStringLiteral("null");
    QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << QStringLiteral("null");
    QTest::newRow("minus infinity") << -std::numeric_limits<double>::infinity() << QStringLiteral("null");
}

void TestJsonWriter::doublesLookLikeDoubles() {
    QFETCH(double, number);
    QFETCH(QString, text);
    const QString written = written_number(number);
    QCOMPARE(written, text);
    if (!std::isfinite(number)) return;
    // It reads back as the same double.
    const QJsonDocument document = QJsonDocument::fromJson(("{\"x\":" + written + "}").toUtf8());
    QVERIFY(document.isObject());
    QCOMPARE_EQ(document.object().value(QStringLiteral("x")).toDouble(), number);
}

void TestJsonWriter::integersStayIntegers() {
    JsonWriter json(false);
    json.begin_array().value(std::int64_t{9007199254740993}).value(0).value(-7).end_array();
    QCOMPARE(QString::fromStdString(json.text()), QStringLiteral("[9007199254740993,0,-7]"));
}

void TestJsonWriter::stringsAreEscaped() {
    JsonWriter json(false);
    json.value(std::string_view("a \"quote\", a \\ backslash,\n\t\r and \x01"));
    QCOMPARE(QString::fromStdString(json.text()),
             QStringLiteral(R"("a \"quote\", a \\ backslash,\n\t\r and \u0001")"));
}

void TestJsonWriter::objectsAndArrays() {
    JsonWriter pretty(true);
    pretty.begin_object().key("a").value(1.0).key("b").begin_array().value(true).null().end_array().end_object();
    QCOMPARE(QString::fromStdString(pretty.text()),
             QStringLiteral("{\n  \"a\": 1.0,\n  \"b\": [\n    true,\n    null\n  ]\n}\n"));
    JsonWriter compact(false);
    compact.begin_object().key("a").value(1.0).key("b").begin_array().value(true).null().end_array().end_object();
    QCOMPARE(QString::fromStdString(compact.text()), QStringLiteral(R"({"a":1.0,"b":[true,null]})"));
}

QTEST_APPLESS_MAIN(TestJsonWriter)
#include "test_json_writer.moc"
