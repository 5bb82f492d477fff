#include "engine_harness.h"

#include <sys/resource.h>

#include <sqlite3.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QThread>
#include <QtTest>

#include "sanitizer_build.h"

EngineHarness::EngineHarness() {
    QDir().mkpath(resultsRoot());
}

QString EngineHarness::enginePath() {
    return QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck-engine");
}

QString EngineHarness::trialScript(const QString& name) {
    return QStringLiteral(TUNEDECK_TEST_DATA_DIR "/integration/trials/") + name;
}

QString EngineHarness::writeFile(const QString& fileName, QString yaml) const {
    yaml.replace(QStringLiteral("@TRIAL@"), trialScript(QStringLiteral("behaviour.py")));
    yaml.replace(QStringLiteral("@ROOT@"), root());
    const QString path = root() + '/' + fileName;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        qFatal("cannot write %s", qPrintable(path));
    }
    file.write(yaml.toUtf8());
    return path;
}

QProcessEnvironment EngineHarness::environment() const {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TUNEDECK_RESULTS"), resultsRoot());
    env.remove(QStringLiteral("PYTHONPATH"));  // trials must find the SDK through the engine
    env.remove(QStringLiteral("TUNEDECK_WORKER"));
    env.remove(QStringLiteral("TUNEDECK_PYTHON_SDK"));
    return env;
}

std::unique_ptr<QProcess> EngineHarness::start(const QStringList& args,
                                               const std::function<void()>& childSetup) const {
    auto process = std::make_unique<QProcess>();
    process->setProcessEnvironment(environment());
    process->setWorkingDirectory(root());
    if (childSetup) {
        process->setChildProcessModifier(childSetup);
    }
    process->start(enginePath(), args);
    if (!process->waitForStarted(10000)) {
        qFatal("cannot start %s", qPrintable(enginePath()));
    }
    return process;
}

EngineResult EngineHarness::finish(QProcess& process, int timeoutMs) {
    EngineResult result;
    result.finished = process.waitForFinished(timeoutMs);
    if (!result.finished) {
        process.kill();
        process.waitForFinished(5000);
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

bool EngineHarness::waitForFile(const QString& path, int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (!QFile::exists(path) && timer.elapsed() < timeoutMs) {
        QThread::msleep(20);
    }
    return QFile::exists(path);
}

EngineResult EngineHarness::run(const QStringList& args, int timeoutMs) const {
    std::unique_ptr<QProcess> process = start(args);
    return finish(*process, timeoutMs);
}

QJsonArray EngineHarness::exportJson(const QString& folder) const {
    const EngineResult r =
        run({QStringLiteral("export"), folder, QStringLiteral("--format"), QStringLiteral("json")});
    if (r.exitCode != 0) {
        qWarning("export failed: %s", qPrintable(r.all()));
        return {};
    }
    return QJsonDocument::fromJson(r.out.toUtf8()).array();
}

QJsonObject EngineHarness::statuses(const QJsonArray& exported) {
    QJsonObject out;
    for (const QJsonValue& trial : exported) {
        out.insert(trial.toObject().value("trial_id").toString(),
                   trial.toObject().value("status").toString());
    }
    return out;
}

QString sqliteQuery(const QString& databasePath, const QString& sql) {
    sqlite3* db = nullptr;
    QString value;
    if (sqlite3_open_v2(databasePath.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) ==
        SQLITE_OK) {
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(db, sql.toUtf8().constData(), -1, &statement, nullptr) ==
                SQLITE_OK &&
            sqlite3_step(statement) == SQLITE_ROW) {
            value =
                QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
        }
        sqlite3_finalize(statement);
    }
    sqlite3_close(db);
    return value;
}

bool sqliteExec(const QString& databasePath, const QString& sql) {
    sqlite3* db = nullptr;
    bool done = false;
    if (sqlite3_open_v2(databasePath.toUtf8().constData(), &db, SQLITE_OPEN_READWRITE, nullptr) ==
        SQLITE_OK) {
        done = sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    sqlite3_close(db);
    return done;
}

void EngineHarness::startUnderMemoryBound(QProcess& engine, const QStringList& args,
                                          qint64 bytes) const {
    engine.setProcessEnvironment(environment());
    if (!tunedeck::test::kSanitizerBuild) {
        engine.setChildProcessModifier([bytes] {
            const rlimit limit{rlim_t(bytes), rlim_t(bytes)};
            ::setrlimit(RLIMIT_AS, &limit);
        });
    }
    engine.start(enginePath(), args);
}

qint64 peakResidentKb(qint64 pid) {
    QFile file(QStringLiteral("/proc/%1/status").arg(pid));
    if (!file.open(QIODevice::ReadOnly)) {
        return -1;
    }
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (line.startsWith("VmHWM:")) {
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
        }
    }
    return -1;
}
