// `tunedeck-engine cluster up|down FILE` run from the cluster editor: the engine's output line by
// line as it comes (each node's lines start with "[node] "), Cancel, and the exit status. The
// engine does the work, so the app and the command line never disagree on what `up` means.
// Thread-safety: GUI thread only.
#pragma once

#include <QObject>
#include <QProcess>
#include <QTimer>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace tunedeck::app {

class ClusterCommandRunner : public QObject {
    Q_OBJECT
  public:
    explicit ClusterCommandRunner(QObject* parent = nullptr);
    // Kills a command still running.
    ~ClusterCommandRunner() override;

    // Runs `engineBinary cluster VERB FILE`; false when a command runs already.
    bool start(const QString& engineBinary, const QString& verb, const QString& clusterFile);
    // SIGTERM, then SIGKILL if the engine has not ended after kKillAfterMs.
    void cancel();
    bool isRunning() const;
    QString verb() const { return verb_; }

    static constexpr int kKillAfterMs = 3000;

  signals:
    void started(const QString& commandLine);
    // One line of output, without its line break; `isError`: it came on stderr.
    void line(const QString& text, bool isError);
    // `ok`: exit status 0. `summary` says how it ended, in the user's words.
    void finished(bool ok, int exitCode, const QString& summary);

  private:
    void readLines(QProcess::ProcessChannel channel, bool atEnd);
    void onFinished(int exitCode, QProcess::ExitStatus status);

    QProcess* process_ = nullptr;
    QString verb_;
    QByteArray pending_[2];  // stdout, stderr: the start of a line still coming
    QTimer killTimer_;
    bool running_ = false;  // from start() until finished(), also while the process starts
    bool cancelled_ = false;
    bool sawUnknownHostKey_ = false;
};

// The output pane: the lines as they arrive, each node's `[node]` prefix in a colour of its own
// and stderr in red, a Cancel button while a command runs, and how it ended.
class ClusterOutputPane : public QWidget {
    Q_OBJECT
  public:
    explicit ClusterOutputPane(ClusterCommandRunner* runner, QWidget* parent = nullptr);

    QPlainTextEdit* text() const { return text_; }
    QString statusText() const;

  private:
    void append(const QString& line, bool isError);

    ClusterCommandRunner* runner_;
    QPlainTextEdit* text_;
    QLabel* status_;
    QPushButton* cancel_;
};

}  // namespace tunedeck::app
