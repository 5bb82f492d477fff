#include "fake_gpus.h"

#include <QDir>
#include <QFile>
#include <QTest>

namespace worker_test {

namespace {

QString gpuLine(const FakeGpu& gpu) {
    return QStringLiteral(
               "gpu uuid=%1 name=%2 memory_total_mb=%3 memory_used_mb=%4 "
               "utilization=%5 temperature=%6 power_mw=%7 lost=%8")
        .arg(gpu.uuid, gpu.name)
        .arg(gpu.memoryTotalMb)
        .arg(gpu.memoryUsedMb)
        .arg(gpu.utilization)
        .arg(gpu.temperature)
        .arg(gpu.powerMw)
        .arg(gpu.lost ? 1 : 0);
}

}  // namespace

void writeState(const QString& path, const QList<FakeGpu>& gpus, const QStringList& more) {
    QStringList lines;
    for (const FakeGpu& gpu : gpus) {
        lines << gpuLine(gpu);
    }
    lines << more;
    QFile file(path + ".tmp");
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write((lines.join('\n') + '\n').toUtf8());
    file.close();
    QVERIFY(QFile::remove(path) || !QFile::exists(path));
    QVERIFY(QFile::rename(path + ".tmp", path));
}

QProcessEnvironment withDriver(const QString& libraryDir, const QString& statePath,
                               const QString& visibleDevices) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString inherited = env.value("LD_LIBRARY_PATH");
    env.insert("LD_LIBRARY_PATH", libraryDir + (inherited.isEmpty() ? "" : ":" + inherited));
    env.insert("TUNEDECK_FAKE_NVML_STATE", statePath);
    env.remove("CUDA_VISIBLE_DEVICES");
    if (!visibleDevices.isNull()) {
        env.insert("CUDA_VISIBLE_DEVICES", visibleDevices);
    }
    return env;
}

QString writeFakeMpsControl(const QString& dir, const QString& log, const QString& failure) {
    const QString bin = dir + "/bin";
    QDir().mkpath(bin);
    QFile script(bin + "/nvidia-cuda-mps-control");
    if (!script.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        return {};
    }
    QString text = QStringLiteral("#!/bin/sh\n");
    text += log.isEmpty() ? QStringLiteral("[ \"$1\" = -d ] || cat > /dev/null\n")
                          : QStringLiteral(
                                "echo \"args=$* pipe=$CUDA_MPS_PIPE_DIRECTORY "
                                "log=$CUDA_MPS_LOG_DIRECTORY\" >> '%1'\n"
                                "[ \"$1\" = -d ] || cat >> '%1'\n")
                                .arg(log);
    text += failure.isEmpty() ? QStringLiteral("exit 0\n")
                              : QStringLiteral("echo '%1' >&2\nexit 1\n").arg(failure);
    script.write(text.toUtf8());
    script.close();
    return script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner)
               ? bin
               : QString();
}

}  // namespace worker_test
