// The fake NVML driver's side in the tests (fake_nvml/fake_nvml.cpp reads the state file these
// write): the cards it reports, and an agent environment that finds it first.
#pragma once

#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace worker_test {

struct FakeGpu {
    QString uuid;
    QString name = QStringLiteral("Fake_A100");
    int memoryTotalMb = 40960;
    int memoryUsedMb = 1024;
    int utilization = 37;
    int temperature = 55;
    int powerMw = 123000;
    bool lost = false;
};

// Written whole and renamed into place, so the fake never reads half a state; `more` are extra
// lines (`process gpu=N pid=P`).
void writeState(const QString& path, const QList<FakeGpu>& gpus, const QStringList& more = {});

// The test's environment with the fake driver first on the library path; CUDA_VISIBLE_DEVICES
// is the one given (unset when null).
QProcessEnvironment withDriver(const QString& libraryDir, const QString& statePath,
                               const QString& visibleDevices = QString());

}  // namespace worker_test
