// The stand-ins for NVIDIA's software in the tests: the fake NVML driver's side
// (fake_nvml/fake_nvml.cpp reads the state file these write), an agent environment that finds it
// first, and a stand-in for the MPS control program. Used by the agent's, the engine's and the
// app's tests (library tunedeck_test_fake_gpus).
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

// Writes DIR/bin/nvidia-cuda-mps-control, a stand-in for NVIDIA's MPS control program, and
// returns DIR/bin (empty when it cannot be written). It exits 0, or says `failure` and exits 1
// when given one; with a `log`, it appends its arguments, the folders it was given and its stdin
// (commands such as quit) there.
QString writeFakeMpsControl(const QString& dir, const QString& log = {},
                            const QString& failure = {});

}  // namespace worker_test
