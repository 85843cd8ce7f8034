// The pieces messages are built from (core/common/message_text.h): counts with their nouns, and a user's text echoed
// back, cut after 80 characters (UTF-8 characters, not bytes) with the count of those left out; and what tells a
// whole number too large for 64 bits from text that is no whole number (common/number_text.h).

#include "common/message_text.h"
#include "common/number_text.h"

#include "numeric_compare.h"

#include <QTest>

#include <cstdint>

using parasight::testing::qs;

class TestMessageText : public QObject {
    Q_OBJECT

private slots:
    void countPhrase_data();
    void countPhrase();
    void echoedText_data();
    void echoedText();
    void pathsAreEchoedWhole();
    void wholeNumberText_data();
    void wholeNumberText();
    void paddedCountsCharacters_data();
    void paddedCountsCharacters();
};

void TestMessageText::countPhrase_data() {
    QTest::addColumn<qint64>("count");
    QTest::addColumn<QString>("singular");
    QTest::addColumn<QString>("plural");  // empty: the singular and an "s"
    QTest::addColumn<QString>("expected");
    QTest::newRow("one") << qint64{1} << "device" << "" << "1 device";
    QTest::newRow("zero") << qint64{0} << "device" << "" << "0 devices";
    QTest::newRow("two") << qint64{2} << "device" << "" << "2 devices";
    QTest::newRow("minus one") << qint64{-1} << "layer" << "" << "-1 layers";
    QTest::newRow("irregular, one") << qint64{1} << "entry" << "entries" << "1 entry";
    QTest::newRow("irregular, many") << qint64{100001} << "entry" << "entries" << "100001 entries";
    QTest::newRow("micro-batch") << qint64{3} << "micro-batch" << "micro-batches" << "3 micro-batches";
    QTest::newRow("largest") << qint64{INT64_MAX} << "byte" << "" << "9223372036854775807 bytes";
}

void TestMessageText::countPhrase() {
    QFETCH(qint64, count);
    QFETCH(QString, singular);
    QFETCH(QString, plural);
    QFETCH(QString, expected);
    QCOMPARE(qs(parasight::count_phrase(count, singular.toStdString(), plural.toStdString())), expected);
}

void TestMessageText::echoedText_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("shortened");
    QTest::addColumn<QString>("in_quotes");
    const QString eighty(80, u'x');
    QTest::newRow("short") << "tpp" << "tpp" << "'tpp'";
    QTest::newRow("empty") << "" << "" << "''";
    QTest::newRow("80 characters, whole") << eighty << eighty << u'\'' + eighty + u'\'';
    QTest::newRow("81 characters") << eighty + u'y' << eighty + QStringLiteral("\u2026 (1 more character)")
                                   << u'\'' + eighty + QStringLiteral("\u2026' (1 more character)");
    QTest::newRow("300 000 characters") << eighty + QString(299920, u'y')
                                        << eighty + QStringLiteral("\u2026 (299920 more characters)")
                                        << u'\'' + eighty + QStringLiteral("\u2026' (299920 more characters)");
    // 90 two-byte characters (é is C3 A9): 80 of them are kept, 160 bytes, none cut in half.
    const QString e_acute(80, QChar(0x00e9));
    QTest::newRow("two-byte characters") << e_acute + QString(10, QChar(0x00e9))
                                         << e_acute + QStringLiteral("\u2026 (10 more characters)")
                                         << u'\'' + e_acute + QStringLiteral("\u2026' (10 more characters)");
    // A four-byte character (U+1F600) straddling the cut is kept whole or left out whole.
    const QString emoji = QString::fromUcs4(U"\U0001F600");
    const QString seventy_nine(79, u'x');
    QTest::newRow("four-byte character after the cut")
        << eighty + emoji << eighty + QStringLiteral("\u2026 (1 more character)")
        << u'\'' + eighty + QStringLiteral("\u2026' (1 more character)");
    QTest::newRow("four-byte character at the cut")
        << seventy_nine + emoji + u'z' << seventy_nine + emoji + QStringLiteral("\u2026 (1 more character)")
        << u'\'' + seventy_nine + emoji + QStringLiteral("\u2026' (1 more character)");
}

void TestMessageText::echoedText() {
    QFETCH(QString, text);
    QFETCH(QString, shortened);
    QFETCH(QString, in_quotes);
    const std::string utf8 = text.toStdString();
    QCOMPARE(qs(parasight::shortened(utf8)), shortened);
    QCOMPARE(qs(parasight::in_quotes(utf8)), in_quotes);
}

void TestMessageText::pathsAreEchoedWhole() {
    // A path's end names the file, so paths are cut only past the longest one Linux opens.
    const std::string path = "/data/" + std::string(300, 'd') + "/measured.csv";
    QCOMPARE(qs(parasight::in_quotes(path, parasight::max_echoed_path_characters)), qs("'" + path + "'"));
    const std::string runaway(5000, 'p');
    QCOMPARE(qs(parasight::in_quotes(runaway, parasight::max_echoed_path_characters)),
             qs("'" + std::string(4096, 'p') + "\u2026' (904 more characters)"));
}

void TestMessageText::wholeNumberText_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("whole");   // is_whole_number_text
    QTest::addColumn<bool>("parsed");  // parse_integer gives a value
    QTest::newRow("8") << "8" << true << true;
    QTest::newRow("+8") << "+8" << true << true;
    QTest::newRow("-8") << "-8" << true << true;
    QTest::newRow("2^63 - 1") << "9223372036854775807" << true << true;
    QTest::newRow("2^63") << "9223372036854775808" << true << false;
    QTest::newRow("10^26") << "100000000000000000000000000" << true << false;
    QTest::newRow("-10^20") << "-100000000000000000000" << true << false;
    QTest::newRow("1.5") << "1.5" << false << false;
    QTest::newRow("1e3") << "1e3" << false << false;
    QTest::newRow("eight") << "eight" << false << false;
    QTest::newRow("sign alone") << "+" << false << false;
    QTest::newRow("two signs") << "+-8" << false << false;
    QTest::newRow("empty") << "" << false << false;
    QTest::newRow("space") << " 8" << false << false;
}

void TestMessageText::wholeNumberText() {
    QFETCH(QString, text);
    QFETCH(bool, whole);
    QFETCH(bool, parsed);
    QCOMPARE(parasight::is_whole_number_text(text.toStdString()), whole);
    QCOMPARE(parasight::parse_integer(text.toStdString()).has_value(), parsed);
}

void TestMessageText::paddedCountsCharacters_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("width");
    QTest::addColumn<QString>("expected");
    QTest::newRow("ascii") << "data" << 6 << "data  ";
    // "×" is two bytes and one character: "8 × 8" is 5 characters, padded with 2 to 7.
    QTest::newRow("two-byte character") << "8 × 8" << 7 << "8 × 8  ";
    QTest::newRow("exactly the width") << "layer" << 5 << "layer";
    QTest::newRow("longer than the width") << "data+spatial" << 4 << "data+spatial";
    QTest::newRow("empty") << "" << 3 << "   ";
}

void TestMessageText::paddedCountsCharacters() {
    QFETCH(QString, text);
    QFETCH(int, width);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(parasight::padded(text.toStdString(), static_cast<std::size_t>(width))), expected);
}

QTEST_APPLESS_MAIN(TestMessageText)
#include "test_message_text.moc"
