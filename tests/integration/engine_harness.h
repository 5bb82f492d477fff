// Runs the real tunedeck-engine binary against experiments written into a temporary folder, with
// the trials of tests/integration/trials. Each test gets its own results root, so tests can run in
// parallel. Not thread-safe; one per test function.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <functional>
#include <memory>

struct EngineResult {
    int exitCode = -1;
    QString out;
    QString err;
    bool finished = false;  // false: it ran past the timeout and was killed
    QString all() const { return out + err; }
};

class EngineHarness {
  public:
    EngineHarness();

    QString root() const { return dir_.path(); }
    QString resultsRoot() const { return dir_.path() + QStringLiteral("/results"); }
    static QString enginePath();
    static QString trialScript(const QString& name);  // tests/integration/trials/<name>

    // Writes <root>/<fileName> with `yaml`, after replacing @TRIAL@ with the absolute path of the
    // behaviour trial and @ROOT@ with root(). Returns the file's path.
    QString writeFile(const QString& fileName, QString yaml) const;

    EngineResult run(const QStringList& args, int timeoutMs = 120000) const;
    // Starts the engine and returns at once (for kill -9, SIGINT and concurrency tests).
    // `childSetup` runs in the child before the engine does (resource limits).
    std::unique_ptr<QProcess> start(const QStringList& args,
                                    const std::function<void()>& childSetup = {}) const;
    static EngineResult finish(QProcess& process, int timeoutMs = 120000);
    // Starts the engine in `engine` under an address-space bound of `bytes`, so that a parse
    // allocating without end fails there, not the machine (no bound in the sanitizer build:
    // AddressSanitizer reserves terabytes of address space at start).
    void startUnderMemoryBound(QProcess& engine, const QStringList& args, qint64 bytes) const;
    // Waits up to `timeoutMs` for `path` (a file the engine or a trial makes) to appear; whether
    // it did.
    static bool waitForFile(const QString& path, int timeoutMs);

    // The experiment's folder under resultsRoot() (the first run of `name`).
    QString experimentFolder(const QString& name) const { return resultsRoot() + '/' + name; }
    // `tunedeck-engine export FOLDER --format json`, parsed.
    QJsonArray exportJson(const QString& folder) const;
    // The status of each trial in `exported`, e.g. {"t00000": "TERMINATED"}.
    static QJsonObject statuses(const QJsonArray& exported);

    QProcessEnvironment environment() const;

  private:
    QTemporaryDir dir_;
};

// Reads one value with the sqlite3 C API (tests look at the database as a user's tool would).
QString sqliteQuery(const QString& databasePath, const QString& sql);
// Runs `sql` (statements, no result) on the file read-write; false when it fails.
bool sqliteExec(const QString& databasePath, const QString& sql);
// The highest resident memory of a process, from /proc, in kB; -1 when it cannot be read.
qint64 peakResidentKb(qint64 pid);
