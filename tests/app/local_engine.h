// The engine of the app's window tests: `tunedeck-engine serve` of an EngineHarness on a private
// socket, as a user's local engine, stopped (SIGTERM, as a logout would) when the LocalEngine
// goes out of scope. Header-only; GUI thread only.
#pragma once

#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <csignal>
#include <memory>

#include "engine_harness.h"
#include "views/main_window.h"
#include "wait_for.h"

namespace app_test {

struct LocalEngine {
    std::unique_ptr<QProcess> process;
    QString socket;

    LocalEngine() = default;
    LocalEngine(const LocalEngine&) = delete;
    LocalEngine& operator=(const LocalEngine&) = delete;
    ~LocalEngine() {
        if (process && process->state() == QProcess::Running) {
            ::kill(pid_t(process->processId()), SIGTERM);
            process->waitForFinished(30000);
        }
    }

    // Starts the serve (with `serveArguments` besides); true once its socket is there.
    bool start(const EngineHarness& harness, const QStringList& serveArguments = {}) {
        socket = harness.root() + "/engine.sock";
        process = harness.start(
            QStringList{"serve", "--listen", "unix:" + socket, "--results", harness.resultsRoot()} +
            serveArguments);
        return waitFor([&] { return QFile::exists(socket); }, 20000);
    }

    // start(), then `window` shown at 1280x800 and attached; true once its client is ready.
    bool startAttached(const EngineHarness& harness, tunedeck::app::MainWindow* window,
                       const QStringList& serveArguments = {}) {
        if (!start(harness, serveArguments)) {
            return false;
        }
        window->resize(1280, 800);
        window->show();
        window->attachLocal(socket, {});
        return waitFor([&] { return window->client().isReady(); }, 20000);
    }
};

}  // namespace app_test
