#include "golden_files.h"

#include <QDir>
#include <QFile>
#include <QtTest>

namespace tunedeck::testing {

QString goldenDir() {
    return QDir::cleanPath(QStringLiteral(TUNEDECK_TEST_DATA_DIR "/golden"));
}

QString readText(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

bool writeText(const QString& path, const QString& text) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(text.toUtf8()) == text.toUtf8().size();
}

QStringList goldenInputs(const QString& dir, bool withJson) {
    QStringList patterns{QStringLiteral("*.yaml")};
    if (withJson) {
        patterns << QStringLiteral("*.json");
    }
    QStringList paths;
    const QDir folder(dir);
    for (const QString& name : folder.entryList(patterns, QDir::Files, QDir::Name)) {
        paths << folder.filePath(name);
    }
    return paths;
}

QString goldenText(const QString& output, const QStringList& warnings) {
    QString text = output;
    for (const QString& warning : warnings) {
        text += QStringLiteral("warning: ") + warning + QLatin1Char('\n');
    }
    return text.replace(goldenDir() + QLatin1Char('/'), QString());
}

void compareWithExpected(const QString& input, const QString& actual) {
    const QString expectedPath =
        input.section(QLatin1Char('.'), 0, -2) + QStringLiteral(".expected");
    if (qEnvironmentVariableIsSet("TUNEDECK_UPDATE_GOLDEN")) {
        QVERIFY(writeText(expectedPath, actual));
        QSKIP("expected output rewritten; review the diff before committing it");
    }
    QVERIFY2(QFile::exists(expectedPath),
             qPrintable(QStringLiteral("%1 is missing; run with TUNEDECK_UPDATE_GOLDEN=1 and "
                                       "review what it wrote")
                            .arg(expectedPath)));
    const QString expected = readText(expectedPath);
    if (actual != expected) {
        qWarning().noquote() << "\n--- expected\n" << expected << "--- actual\n" << actual;
    }
    QCOMPARE(actual, expected);
}

}  // namespace tunedeck::testing
