// pbt's explore_command (Ray's custom_explore_fn, as a program): run on this machine at each
// exploit, in the trainable's working folder with its environment, the explored config as one
// JSON object on its standard input; the JSON object it prints on its standard output is the
// config the trial goes on with. Each answer comes back through `done`, once: the config, or
// why there is none (it could not start, exited non-zero, printed no JSON object, ran past
// the timeout). Runs as the experiment's owner: an engine acting for another user (a root
// `serve`) sets the child's identity to that user's. Owned by the event loop.
#pragma once

#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <memory>

class QProcess;
class QTimer;

namespace tunedeck {

class ExploreCommands : public QObject {
    Q_OBJECT
  public:
    using Done = std::function<void(const QString& trialId, const QJsonObject& config,
                                    const QString& error)>;

    ExploreCommands(QString workingDir, QMap<QString, QString> env, Done done,
                    QObject* parent = nullptr);
    ~ExploreCommands() override;

    // One run for `trialId`'s exploit; a run still going for it is ended first (its answer is
    // dropped).
    void run(const QString& trialId, const QStringList& command, const QJsonObject& config);

    static constexpr int kTimeoutMs = 60000;
    static constexpr qint64 kMostOutputBytes = 4 << 20;

  private:
    struct Run {
        std::unique_ptr<QProcess> process;
        std::unique_ptr<QTimer> timer;
    };
    void finish(const QString& trialId, const QString& error);
    void retire(Run& run);

    QString workingDir_;
    QMap<QString, QString> env_;
    Done done_;
    std::map<QString, Run> runs_;
};

}  // namespace tunedeck
