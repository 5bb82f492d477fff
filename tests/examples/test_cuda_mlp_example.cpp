// The CUDA example (resources/examples/cuda-mlp) as a user runs it: its experiment through the
// real tunedeck-engine (a CPU copy: this machine may have no GPU), its launcher finding the
// binary built with the engine, and the CUDA build starting cleanly without a GPU. Where a GPU
// is visible, the CUDA path must repeat itself exactly and agree with the CPU path.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include "engine_harness.h"

class TestCudaMlpExample : public QObject {
    Q_OBJECT
  private slots:
    void theExperimentFileIsValid();
    void theExperimentRunsUnderTheEngineOnTheCpu();
    void theLauncherFindsTheBinaryBuiltWithTheEngine();
    void theLauncherSaysWhenNoBinaryIsFound();
    void theCudaBuildStartsWithoutAGpu();
    void theCudaPathRepeatsItselfAndAgreesWithTheCpuPath();
};

namespace {

const QString kExampleDir = QStringLiteral(TUNEDECK_SOURCE_DIR "/resources/examples/cuda-mlp");

QString binary(const QString& name) {
    return QStringLiteral(TUNEDECK_EXAMPLES_BIN_DIR "/") + name;
}

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
    QString all() const { return out + err; }
};

Run runProcess(const QString& program, const QStringList& args, const QProcessEnvironment& env) {
    QProcess process;
    process.setProcessEnvironment(env);
    process.setWorkingDirectory(kExampleDir);
    process.start(program, args);
    Run run;
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        run.err = QStringLiteral("timed out");
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

// A clean environment for the binaries: no engine channel, no SDK hints.
QProcessEnvironment plainEnvironment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"TUNEDECK_CHANNEL", "TUNEDECK_CONFIG", "TUNEDECK_RESTORE",
                             "TUNEDECK_CUDA_MLP", "PYTHONPATH"}) {
        env.remove(QString::fromLatin1(name));
    }
    return env;
}

// The `tunedeck report: {...}` lines a trial run by hand prints, parsed.
QList<QJsonObject> reports(const QString& out) {
    QList<QJsonObject> parsed;
    const QString prefix = QStringLiteral("tunedeck report: ");
    for (const QString& line : out.split('\n')) {
        if (line.startsWith(prefix)) {
            parsed.append(QJsonDocument::fromJson(line.mid(prefix.size()).toUtf8()).object());
        }
    }
    return parsed;
}

// A short training by hand: 4 epochs of a small model.
QStringList shortTraining(const QString& device) {
    return {"--device",     device, "--data",  kExampleDir + "/digits.csv",
            "--epochs",     "4",    "--lr",    "0.003",
            "--batch-size", "32",   "--width", "64",
            "--depth",      "2",    "--seed",  "3"};
}

}  // namespace

// The file as shipped; whether this machine has a GPU for it is not the file's business.
void TestCudaMlpExample::theExperimentFileIsValid() {
    EngineHarness h;
    const EngineResult r = h.run({"validate", "--file-only", kExampleDir + "/experiment.yaml"});
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("5 parameters") && r.out.contains("scheduler asha"),
             qPrintable(r.all()));
}

// experiment.yaml itself, with only what a CPU-only machine and a short test need changed; a
// change to the file that this test no longer recognises fails here, by name.
void TestCudaMlpExample::theExperimentRunsUnderTheEngineOnTheCpu() {
    QFile file(kExampleDir + "/experiment.yaml");
    QVERIFY(file.open(QIODevice::ReadOnly));
    QString yaml = QString::fromUtf8(file.readAll());
    const QList<QPair<QString, QString>> edits = {
        {"trainable:\n", "trainable:\n  working_dir: " + kExampleDir + "\n"},
        {"gpu: 0.25", "gpu: 0"},
        {"--device cuda", "--device cpu"},
        {"num_samples: 16", "num_samples: 4"},
        {"max_t: 30, grace_period: 3", "max_t: 4, grace_period: 2"},
        {"training_iteration: 30", "training_iteration: 4"},
        {"frequency: 10", "frequency: 2"},
    };
    for (const auto& [from, to] : edits) {
        QVERIFY2(yaml.contains(from),
                 qPrintable("experiment.yaml no longer holds '" + from + "': update this test"));
        yaml.replace(from, to);
    }
    EngineHarness h;
    const QString path = h.writeFile("cuda-mlp-cpu.yaml", yaml);
    const EngineResult r = h.run({"run", path, "--quiet"}, 150000);
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.all()));

    const QString folder = h.experimentFolder("cuda-mlp");
    const QJsonArray exported = h.exportJson(folder);
    QCOMPARE(exported.size(), 4);
    double best = 0;
    for (const QJsonValue& t : exported) {
        const QJsonObject trial = t.toObject();
        const QString id = trial.value("trial_id").toString();
        QCOMPARE(trial.value("status").toString(), QStringLiteral("TERMINATED"));
        const QJsonArray results = trial.value("results").toArray();
        QVERIFY2(results.size() >= 2 && results.size() <= 4, qPrintable(id));
        for (const QJsonValue& v : results) {
            const QJsonObject result = v.toObject();
            const double accuracy = result.value("val_accuracy").toDouble(-1);
            QVERIFY2(accuracy > 0 && accuracy <= 1, qPrintable(id));
            QVERIFY2(result.value("samples_per_s").toDouble() > 0, qPrintable(id));
            QCOMPARE(result.value("device").toString(), QStringLiteral("cpu"));
        }
        best = std::max(best, results.last().toObject().value("val_accuracy").toDouble());
    }
    QVERIFY2(best > 0.8, qPrintable(QString::number(best)));

    // Checkpoints asked for by the engine were written by the trial's save function.
    const QString kept = sqliteQuery(folder + "/experiment.sqlite",
                                     "SELECT count(*) FROM checkpoints WHERE deleted = 0");
    QVERIFY2(kept.toInt() >= 1, qPrintable(kept));
    QDirIterator states(folder, {"mlp_state.bin"}, QDir::Files, QDirIterator::Subdirectories);
    QVERIFY2(states.hasNext(), "no mlp_state.bin under the experiment's folder");
}

void TestCudaMlpExample::theLauncherFindsTheBinaryBuiltWithTheEngine() {
    // As the engine starts it: its SDK folder first on PYTHONPATH names the build (or install).
    QProcessEnvironment env = plainEnvironment();
    env.insert("PYTHONPATH", QStringLiteral(TUNEDECK_BUILD_DIR "/share/tunedeck/sdk/python:/x"));
    const Run run = runProcess("sh", {"train.sh", "--device", "cpu", "--epochs", "1"}, env);
    QVERIFY2(run.exitCode == 0, qPrintable(run.all()));
    QCOMPARE(reports(run.out).size(), 1);

    // An explicit TUNEDECK_CUDA_MLP wins.
    env.insert("TUNEDECK_CUDA_MLP", "/nonexistent/cuda-mlp");
    const Run explicitPath =
        runProcess("sh", {"train.sh", "--device", "cpu", "--epochs", "1"}, env);
    QVERIFY2(explicitPath.exitCode == 127 && explicitPath.err.contains("/nonexistent/cuda-mlp"),
             qPrintable(explicitPath.all()));
}

void TestCudaMlpExample::theLauncherSaysWhenNoBinaryIsFound() {
    QProcessEnvironment env = plainEnvironment();
    env.insert("PATH", "/usr/bin:/bin");
    const Run run = runProcess("sh", {"train.sh", "--epochs", "1"}, env);
    QCOMPARE(run.exitCode, 127);
    QVERIFY2(run.err.contains("the cuda-mlp example is not built"), qPrintable(run.all()));
}

void TestCudaMlpExample::theCudaBuildStartsWithoutAGpu() {
#ifndef TUNEDECK_CUDA_MLP_BUILT
    QSKIP("built without the CUDA toolkit: there is no cuda-mlp binary");
#endif
    QProcessEnvironment env = plainEnvironment();
    env.insert("CUDA_VISIBLE_DEVICES", "");  // hides every GPU, as for a trial placed on none
    const Run cuda = runProcess(binary("cuda-mlp"), shortTraining("cuda"), env);
    QCOMPARE(cuda.exitCode, 2);
    QVERIFY2(cuda.err.contains("--device cuda: no usable CUDA device"), qPrintable(cuda.all()));
    QVERIFY(reports(cuda.out).isEmpty());

    const Run automatic = runProcess(binary("cuda-mlp"), shortTraining("auto"), env);
    QVERIFY2(automatic.exitCode == 0, qPrintable(automatic.all()));
    QVERIFY2(automatic.err.contains("training on the CPU"), qPrintable(automatic.all()));
    const QList<QJsonObject> results = reports(automatic.out);
    QCOMPARE(results.size(), 4);
    QCOMPARE(results.last().value("device").toString(), QStringLiteral("cpu"));
}

void TestCudaMlpExample::theCudaPathRepeatsItselfAndAgreesWithTheCpuPath() {
#ifndef TUNEDECK_CUDA_MLP_BUILT
    QSKIP("built without the CUDA toolkit: there is no cuda-mlp binary");
#endif
    const QProcessEnvironment env = plainEnvironment();
    const Run first = runProcess(binary("cuda-mlp"), shortTraining("cuda"), env);
    if (first.exitCode == 2 && first.err.contains("no usable CUDA device")) {
        QSKIP("no GPU is visible here");
    }
    QVERIFY2(first.exitCode == 0, qPrintable(first.all()));
    const Run second = runProcess(binary("cuda-mlp"), shortTraining("cuda"), env);
    const Run cpu = runProcess(binary("cuda-mlp"), shortTraining("cpu"), env);
    QVERIFY2(second.exitCode == 0 && cpu.exitCode == 0, qPrintable(second.all() + cpu.all()));
    const QList<QJsonObject> a = reports(first.out);
    const QList<QJsonObject> b = reports(second.out);
    const QList<QJsonObject> c = reports(cpu.out);
    QCOMPARE(a.size(), 4);
    QCOMPARE(b.size(), 4);
    QCOMPARE(c.size(), 4);
    QVERIFY2(a[0].value("device").toString().startsWith("cuda:0"), qPrintable(first.out));
    for (int i = 0; i < 4; ++i) {
        for (const char* key : {"val_loss", "val_accuracy", "train_loss"}) {
            // Deterministic kernels: the same seed gives the same numbers, bit for bit.
            QCOMPARE(a[i].value(key).toDouble(), b[i].value(key).toDouble());
        }
        const double gpuAccuracy = a[i].value("val_accuracy").toDouble();
        const double cpuAccuracy = c[i].value("val_accuracy").toDouble();
        QVERIFY2(std::abs(gpuAccuracy - cpuAccuracy) <= 0.02,
                 qPrintable(QStringLiteral("epoch %1: cuda %2, cpu %3")
                                .arg(i + 1)
                                .arg(gpuAccuracy)
                                .arg(cpuAccuracy)));
        const double gpuLoss = a[i].value("val_loss").toDouble();
        const double cpuLoss = c[i].value("val_loss").toDouble();
        QVERIFY2(
            std::abs(gpuLoss - cpuLoss) <= 0.05 * cpuLoss,
            qPrintable(
                QStringLiteral("epoch %1: cuda %2, cpu %3").arg(i + 1).arg(gpuLoss).arg(cpuLoss)));
    }
    QVERIFY(a.last().value("val_accuracy").toDouble() > 0.9);
}

QTEST_GUILESS_MAIN(TestCudaMlpExample)
#include "test_cuda_mlp_example.moc"
