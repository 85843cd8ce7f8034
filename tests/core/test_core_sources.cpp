// Rules on the core's sources that the compiler cannot check (docs/architecture.md, "Error handling"): no string
// literal in core/ names a command-line option ("--" and a letter), since the core serves front ends without one; the
// command line adds its own hints. Comments may name options. The scanner is tested first on snippets, so that a
// clean core means a clean core and not a scanner that finds nothing.

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Literal {
    int line = 0;
    std::string text;  // between the quotes, escapes as written
};

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// The letters and digits right before position `at`: a literal's prefix (R, u8, L, …) or a number a ' separates.
std::string_view word_before(std::string_view source, std::size_t at) {
    std::size_t start = at;
    while (start > 0 && is_word_char(source[start - 1])) --start;
    return source.substr(start, at - start);
}

// The string literals of C++ source, skipping comments and character literals, with raw strings read to their
// delimiter and 1'000 read as a number.
std::vector<Literal> string_literals(std::string_view source) {
    std::vector<Literal> literals;
    int line = 1;
    std::size_t i = 0;
    auto advance_to = [&](std::size_t end) {
        for (; i < end && i < source.size(); ++i) line += source[i] == '\n' ? 1 : 0;
    };
    while (i < source.size()) {
        const char c = source[i];
        if (source.substr(i, 2) == "//") {
            advance_to(source.find('\n', i));
        } else if (source.substr(i, 2) == "/*") {
            const std::size_t end = source.find("*/", i + 2);
            advance_to(end == std::string_view::npos ? end : end + 2);
        } else if (c == '\'') {
            const std::string_view prefix = word_before(source, i);
            if (!prefix.empty() && std::isdigit(static_cast<unsigned char>(prefix.front())) != 0) {
                ++i;  // a digit separator
                continue;
            }
            std::size_t end = i + 1;
            while (end < source.size() && source[end] != '\'') end += source[end] == '\\' ? 2 : 1;
            advance_to(end + 1);
        } else if (c == '"') {
            const std::string_view prefix = word_before(source, i);
            const int start_line = line;
            if (!prefix.empty() && prefix.back() == 'R') {
                const std::size_t open = source.find('(', i);
                const std::string closing = ")" + std::string(source.substr(i + 1, open - i - 1)) + "\"";
                const std::size_t end = source.find(closing, open);
                literals.push_back({start_line, std::string(source.substr(open + 1, end - open - 1))});
                advance_to(end == std::string_view::npos ? end : end + closing.size());
            } else {
                std::size_t end = i + 1;
                while (end < source.size() && source[end] != '"' && source[end] != '\n') {
                    end += source[end] == '\\' ? 2 : 1;
                }
                literals.push_back({start_line, std::string(source.substr(i + 1, end - i - 1))});
                advance_to(end + 1);
            }
        } else {
            advance_to(i + 1);
        }
    }
    return literals;
}

// "FILE:LINE: text" for every literal that names a long option.
QStringList literals_naming_options(std::string_view source, const QString& file) {
    static const QRegularExpression option(QStringLiteral("--[A-Za-z]"));
    QStringList found;
    for (const Literal& literal : string_literals(source)) {
        const QString text = QString::fromStdString(literal.text);
        if (text.contains(option)) found << QStringLiteral("%1:%2: \"%3\"").arg(file).arg(literal.line).arg(text);
    }
    return found;
}

}  // namespace

class TestCoreSources : public QObject {
    Q_OBJECT

private slots:
    void scannerFindsOptionsInLiteralsOnly_data();
    void scannerFindsOptionsInLiteralsOnly();
    void noCoreLiteralNamesAnOption_data();
    void noCoreLiteralNamesAnOption();
};

void TestCoreSources::scannerFindsOptionsInLiteralsOnly_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<QStringList>("found");
    QTest::newRow("plain literal") << QStringLiteral("err << \"use --max-tasks N\";")
                                   << QStringList{QStringLiteral("s.cpp:1: \"use --max-tasks N\"")};
    QTest::newRow("on a later line") << QStringLiteral("int a;\nint b;\nauto m = \"x\" \"--json\";")
                                     << QStringList{QStringLiteral("s.cpp:3: \"--json\"")};
    QTest::newRow("prefixed literal") << QStringLiteral("auto m = u8\"--csv\";")
                                      << QStringList{QStringLiteral("s.cpp:1: \"--csv\"")};
    QTest::newRow("after an escaped quote") << QStringLiteral("auto m = \"a \\\" --trace\";")
                                            << QStringList{QStringLiteral("s.cpp:1: \"a \\\" --trace\"")};
    QTest::newRow("raw literal over two lines")
        << QStringLiteral("auto help = R\"x(usage:\n  --all-devices)x\";")
        << QStringList{QStringLiteral("s.cpp:1: \"usage:\n  --all-devices\"")};
    // A raw literal's text may hold quotes; what follows it is scanned again.
    QTest::newRow("raw literal holding a quote") << QStringLiteral("R\"(say \"hi\")\"; auto m = \"--db\";")
                                                 << QStringList{QStringLiteral("s.cpp:1: \"--db\"")};
    QTest::newRow("code and comments") << QStringLiteral("--count; // the --all-devices option\n/* \"--json\" */ --n;")
                                       << QStringList{};
    // 1'000'000 is a number, not a character literal swallowing the next string; '"' is a character.
    QTest::newRow("digit separators and a quote character")
        << QStringLiteral("int n = 1'000'000; char q = '\"'; auto m = \"--x\";")
        << QStringList{QStringLiteral("s.cpp:1: \"--x\"")};
    QTest::newRow("dashes before no letter") << QStringLiteral("auto m = \"a -- b, x--1, -x\";") << QStringList{};
}

void TestCoreSources::scannerFindsOptionsInLiteralsOnly() {
    QFETCH(QString, source);
    QFETCH(QStringList, found);
    QCOMPARE(literals_naming_options(source.toStdString(), QStringLiteral("s.cpp")), found);
}

void TestCoreSources::noCoreLiteralNamesAnOption_data() {
    QTest::addColumn<QString>("path");
    const QString core = QStringLiteral(PARASIGHT_SOURCE_DIR "/core");
    QDirIterator files(core, {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                       QDirIterator::Subdirectories);
    QStringList paths;
    while (files.hasNext()) paths << files.next();
    paths.sort();
    // No sources at all would pass every row there is: fail instead.
    if (paths.isEmpty()) QTest::newRow("no sources") << QString();
    for (const QString& path : paths) QTest::newRow(qPrintable(path.mid(core.size() + 1))) << path;
}

void TestCoreSources::noCoreLiteralNamesAnOption() {
    QFETCH(QString, path);
    QVERIFY2(!path.isEmpty(), "no .h or .cpp files under " PARASIGHT_SOURCE_DIR "/core");
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
    const QString shown = QDir(QStringLiteral(PARASIGHT_SOURCE_DIR)).relativeFilePath(path);
    const QStringList found = literals_naming_options(file.readAll().toStdString(), shown);
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n')) +
                                         QStringLiteral("\nthe core names no command-line option: move the hint to "
                                                        "app/cli/")));
}

QTEST_APPLESS_MAIN(TestCoreSources)
#include "test_core_sources.moc"
