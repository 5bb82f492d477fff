// Replays every file of the regression corpora through the entry points of the fuzz targets
// (fuzz_inputs.h), each in its own process under a time bound: a result or a clear refusal,
// never a crash, a hang or a memory blow-up. The corpora are what the fuzzers once found
// (scripts/fuzz adds each new finding): tests/config/regression_corpus/ for experiment and
// cluster YAML, tests/fuzz/regression/<target>/ for every target. No sanitizer build needed.
#include <QDir>
#include <QProcess>
#include <QtTest>

namespace {

// A corpus file is at most a few KB; the slowest known one loads in milliseconds. The bound is
// generous for a loaded CI machine and far below what a hang would take.
constexpr int kBoundMs = 20000;

const QString kRunner = QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck_fuzz_replay");

QStringList filesIn(const QString& dir) {
    QStringList files;
    for (const QFileInfo& info :
         QDir(dir).entryInfoList(QDir::Files | QDir::NoDotAndDotDot, QDir::Name)) {
        if (info.fileName() != QLatin1String("README.md")) {
            files << info.absoluteFilePath();
        }
    }
    return files;
}

}  // namespace

class TstFuzzCorpus : public QObject {
    Q_OBJECT

  private slots:
    void corpusFileGetsResultOrClearError_data();
    void corpusFileGetsResultOrClearError();
};

void TstFuzzCorpus::corpusFileGetsResultOrClearError_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("file");
    const QString source = QStringLiteral(TUNEDECK_SOURCE_DIR);
    // Hostile YAML is hostile to both loaders.
    for (const QString& file :
         filesIn(source + QStringLiteral("/tests/config/regression_corpus"))) {
        for (const char* target : {"experiment_file", "cluster_file"}) {
            QTest::addRow("%s %s", target, qPrintable(QFileInfo(file).fileName()))
                << QString::fromLatin1(target) << file;
        }
    }
    const QDir regression(source + QStringLiteral("/tests/fuzz/regression"));
    for (const QString& target : regression.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        for (const QString& file : filesIn(regression.filePath(target))) {
            QTest::addRow("%s %s", qPrintable(target), qPrintable(QFileInfo(file).fileName()))
                << target << file;
        }
    }
}

void TstFuzzCorpus::corpusFileGetsResultOrClearError() {
    QFETCH(QString, target);
    QFETCH(QString, file);
    QProcess replay;
    replay.setProcessChannelMode(QProcess::SeparateChannels);
    replay.start(kRunner, {target, file});
    QVERIFY2(replay.waitForStarted(), qPrintable(replay.errorString()));
    if (!replay.waitForFinished(kBoundMs)) {
        replay.kill();
        replay.waitForFinished();
        QFAIL(qPrintable(
            QStringLiteral("%1 hung: no answer within %2 s").arg(file).arg(kBoundMs / 1000)));
    }
    const QString errors = QString::fromUtf8(replay.readAllStandardError());
    QVERIFY2(replay.exitStatus() == QProcess::NormalExit,
             qPrintable(QStringLiteral("%1 crashed the %2 parser:\n%3").arg(file, target, errors)));
    QVERIFY2(replay.exitCode() == 0, qPrintable(errors));
    const QStringList output =
        QString::fromUtf8(replay.readAllStandardOutput()).split(QLatin1Char('\n'));
    QVERIFY(!output.isEmpty());
    if (output.first() == QLatin1String("refused")) {
        QVERIFY2(output.size() > 1 && !output.at(1).trimmed().isEmpty(), "a refusal says why");
    } else {
        QCOMPARE(output.first(), QStringLiteral("accepted"));
    }
}

QTEST_GUILESS_MAIN(TstFuzzCorpus)
#include "tst_fuzz_corpus.moc"
