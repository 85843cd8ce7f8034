// The pieces messages are built from (core/common/message_text.h): counts with their nouns.

#include "common/message_text.h"

#include "numeric_compare.h"

#include <QTest>

#include <cstdint>

using parasight::testing::qs;

class TestMessageText : public QObject {
    Q_OBJECT

private slots:
    void countPhrase_data();
    void countPhrase();
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

QTEST_APPLESS_MAIN(TestMessageText)
#include "test_message_text.moc"
