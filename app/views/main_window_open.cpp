// The part of MainWindow that attaches and opens: to a local engine, one over TCP or through an
// SSH tunnel; the experiments list; running a file; opening an experiment of the engine (its
// SQLite file first when it is on this machine) or a folder read-only.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStatusBar>
#include <QThread>
#include <QTreeWidget>

#include "analysis/parallel_coordinates_view.h"
#include "charts/metric_chart.h"
#include "charts/node_usage_view.h"
#include "charts/trial_health_view.h"
#include "core/code_version_text.h"
#include "models/history_reader.h"
#include "plots/study_plots.h"
#include "views/main_window.h"
#include "views/settings_dialog.h"
#include "views/start_page.h"

namespace tunedeck::app {

void MainWindow::forgetExperiment() {
    if (!experiment_.isEmpty()) {
        client_.unsubscribe(experiment_);
    }
    showMonitor({});
    experiment_.clear();
    folder_.clear();
    resultsRoot_.clear();
    serverResults_.clear();
    experiments_->clear();
    showWhatIsOpen();
    showStartPage();
}

void MainWindow::attachThroughTunnel(const QString& socketPath, const QString& server) {
    attachLocal(socketPath, {});
    remote_ = true;  // before its hello arrives: the folders it names are the server's
    server_ = server;
}

void MainWindow::attachLocal(const QString& socketPath, const QString& engineBinary) {
    forgetExperiment();  // another engine: the same name there is another experiment
    remote_ = false;
    server_.clear();
    socketPath_ = socketPath;
    engineBinary_ = engineBinary;
    client_.setLocalServer(socketPath);
    // No engine there yet: start one, once, and let the client's retries find it.
    if (!engineBinary_.isEmpty() && startsLocalEngine() && !QFileInfo::exists(socketPath)) {
        triedToStartEngine_ = true;
        QProcess::startDetached(engineBinary_, {QStringLiteral("serve"), QStringLiteral("--listen"),
                                                QStringLiteral("unix:") + socketPath});
    }
    client_.open(500);
}

void MainWindow::attachTcp(const QString& host, quint16 port, const QString& token) {
    forgetExperiment();
    remote_ = true;
    server_ = QStringLiteral("%1:%2").arg(host).arg(port);
    client_.setTcpServer(host, port, token);
    client_.open(1000);
}

void MainWindow::refreshExperimentList() {
    if (!client_.isReady()) {
        return;
    }
    client_.listExperiments(
        [this](const Status& status, const std::vector<api::ExperimentListEntry>& list) {
            if (!status) {
                return;
            }
            const QSignalBlocker rebuilding(experiments_);  // a row set up is not a click
            experiments_->clear();
            runningOnEngine_.clear();
            servedByEngine_.clear();
            for (auto e = list.rbegin(); e != list.rend(); ++e) {  // newest first
                new QTreeWidgetItem(
                    experiments_, {e->experiment, e->status, QString::number(e->trials), e->best});
                if (e->served) {
                    servedByEngine_ << e->experiment;
                }
                if (e->served && e->status == QLatin1String("running")) {
                    runningOnEngine_ << e->experiment;
                }
            }
            highlightShownExperiment();
        });
}

void MainWindow::highlightShownExperiment() {
    const QSignalBlocker highlighting(experiments_);
    QTreeWidgetItem* shown = nullptr;
    for (int i = 0; i < experiments_->topLevelItemCount() && ofEngine_; ++i) {
        QTreeWidgetItem* item = experiments_->topLevelItem(i);
        shown = item->text(0) == experiment_ ? item : shown;
    }
    experiments_->setCurrentItem(shown);
    if (!shown) {
        experiments_->clearSelection();
    }
}

void MainWindow::runExperimentFile(const QString& path,
                                   std::function<void(const QString& refusal)> outcome) {
    rememberRecent(RecentKind::File, path);
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const auto startAs = [this, outcome](const QString& fileName, const QString& yaml) {
        client_.start(fileName, yaml,
                      [this, outcome](const Status& status, const api::StartedAnswer& started) {
                          if (!status) {
                              emit requestFailed(status.message());
                              if (outcome) {
                                  outcome(status.message());
                              }
                              return;
                          }
                          openStartedExperiment(started.experiment);
                          refreshExperimentList();
                          if (outcome) {
                              outcome({});
                          }
                      });
    };
    if (!remote_) {
        startAs(absolute, {});  // null text: the engine reads the file itself
        return;
    }
    // The server cannot read this machine's file: its text goes, read now. Its relative paths
    // (the trials' working_dir first) start from the same folder where the server has it (a
    // shared or synced home), else from the server's results folder.
    QFile file(absolute);
    if (!file.open(QIODevice::ReadOnly)) {
        const QString message = tr("cannot read %1: %2").arg(absolute, file.errorString());
        emit requestFailed(message);
        if (outcome) {
            outcome(message);
        }
        return;
    }
    const QString yaml = QString::fromUtf8(file.readAll());
    const QString folder = QFileInfo(absolute).absolutePath();
    client_.hasFolder(folder, [this, startAs, absolute, folder, yaml](bool there) {
        if (there) {
            startAs(absolute, yaml);
            return;
        }
        const QString name = QFileInfo(absolute).fileName();
        statusBar()->showMessage(
            tr("The server has no folder %1: the relative paths of %2 start from its results "
               "folder %3")
                .arg(folder, name, serverResults_),
            15000);
        startAs(serverResults_ + '/' + name, yaml);
    });
}

void MainWindow::beginEngineExperiment(const QString& name) {
    if (!experiment_.isEmpty() && ofEngine_) {
        client_.unsubscribe(experiment_);
    }
    ++historyLoads_;  // a history still being read is of what was shown before
    showMonitor(name);
    ofEngine_ = true;
    caughtUp_ = false;
    folder_ = resultsRoot_.isEmpty() ? serverResults_ + '/' + name : resultsRoot_ + '/' + name;
    highlightShownExperiment();
    showWhatIsOpen();
}

void MainWindow::openExperiment(const QString& name) {
    if (name.isEmpty() || (name == experiment_ && ofEngine_)) {
        return;
    }
    beginEngineExperiment(name);
    const QString folder = resultsRoot_ + '/' + name;
    if (!resultsRoot_.isEmpty() && QFileInfo(folder + "/experiment.sqlite").isReadable()) {
        loadHistory(folder, name);  // fast, then live from where it ends
    } else {
        client_.subscribe(name, 0);  // a remote engine: everything over the connection
    }
}

void MainWindow::openStartedExperiment(const QString& name) {
    beginEngineExperiment(name);
    // Its whole history is a few events yet; the subscription's answer names the metric.
    client_.subscribe(name, 0);
}

void MainWindow::openFolder(const QString& folder) {
    const QFileInfo info(folder);
    const bool ours =
        !resultsRoot_.isEmpty() && QFileInfo(info.absolutePath()).canonicalFilePath() ==
                                       QFileInfo(resultsRoot_).canonicalFilePath();
    if (ours) {
        openExperiment(info.fileName());
        pages_->setCurrentIndex(1);  // when it was shown already, from the start page too
        return;
    }
    if (!experiment_.isEmpty() && ofEngine_) {
        client_.unsubscribe(experiment_);
    }
    rememberRecent(RecentKind::Folder, info.absoluteFilePath());
    showMonitor(info.fileName());
    ofEngine_ = false;  // read-only: the engine does not know it
    caughtUp_ = true;
    folder_ = info.absoluteFilePath();
    highlightShownExperiment();  // none of the engine's rows
    showWhatIsOpen();
    loadHistory(info.absoluteFilePath(), {});  // read-only: nothing more will come
}

void MainWindow::loadHistory(const QString& folder, const QString& name) {
    const int load = ++historyLoads_;
    auto history = std::make_shared<History>();
    auto error = std::make_shared<QString>();
    // The nodes' samples, and each trial's share of them.
    struct UsageSamples {
        NodeUsageModel nodes;
        TrialHealthModel trials;
    };
    auto usage = std::make_shared<UsageSamples>();
    QThread* reader = QThread::create([folder, history, usage, error] {
        if (readHistory(folder, history.get(), error.get())) {
            QString ignored;  // the samples are a view's extra; the trials are what matters
            readNodeUsage(
                folder,
                [&usage](events::Event&& event) {
                    usage->nodes.apply(event);
                    usage->trials.apply(event);
                },
                &ignored);
        }
    });
    connect(reader, &QThread::finished, this, [this, reader, load, name, history, usage, error] {
        reader->deleteLater();
        if (load != historyLoads_) {
            return;  // the user opened something else meanwhile
        }
        if (!error->isEmpty()) {
            emit requestFailed(*error);
            if (!name.isEmpty()) {
                client_.subscribe(name, 0);
            }
            return;
        }
        data_.setObjective(history->metric, history->minimize);
        budget_ = history->budget;
        data_.load(std::move(history->trials), std::move(history->exploits), history->status,
                   history->startTime);
        data_.setChoices(std::move(history->choices));
        model_->reset();
        usage_ = std::move(usage->nodes);
        nodes_->refresh();
        trialHealth_ = std::move(usage->trials);
        health_->recomputeNow();
        chart_->setLogScale(false);
        showWhatIsOpen();
        if (!name.isEmpty()) {
            client_.subscribe(name, history->lastSeq);
        }
    });
    reader->start();
}

QWidget* MainWindow::buildFolderBar() {
    auto* bar = new QWidget;
    auto* layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    readOnlyBadge_ = new QLabel(tr("Read-only"));
    readOnlyBadge_->setObjectName(QStringLiteral("readOnlyBadge"));
    readOnlyBadge_->setToolTip(
        tr("Read from its folder: the attached engine does not run this experiment, so nothing "
           "new arrives and its trials cannot be stopped, paused or resumed from here."));
    readOnlyBadge_->setStyleSheet(QStringLiteral(
        "QLabel { background: #b35c00; color: white; font-weight: bold; border-radius: 3px; "
        "padding: 1px 6px; }"));
    readOnlyBadge_->hide();
    folderLabel_ = new QLabel;
    folderLabel_->setObjectName(QStringLiteral("openFolder"));
    folderLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long path must not widen the window: it is cut, and whole in the tooltip.
    folderLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    codeLabel_ = new QLabel;
    codeLabel_->setObjectName(QStringLiteral("codeVersion"));
    codeLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Whole (a hash in 12 digits, showWhatIsOpen); the folder's path takes the rest, cut.
    layout->addWidget(readOnlyBadge_);
    layout->addWidget(folderLabel_, 1);
    layout->addWidget(codeLabel_);
    return bar;
}

void MainWindow::showWhatIsOpen() {
    const bool shown = !experiment_.isEmpty();
    readOnlyBadge_->setVisible(shown && !ofEngine_);
    QString where;
    if (shown && remote_ && ofEngine_) {
        where = tr("Folder on the server: %1").arg(folder_);
    } else if (shown) {
        where = tr("Folder: %1").arg(QDir::toNativeSeparators(folder_));
    }
    folderLabel_->setText(where);
    folderLabel_->setToolTip(where);
    // A folder on a server is not read from here; the CLI's `show` prints its code there.
    QString code;
    if (shown && !(remote_ && ofEngine_)) {
        QFile record(folder_ + QStringLiteral("/code/version.json"));
        if (record.open(QIODevice::ReadOnly)) {
            code = codeVersionText(QJsonDocument::fromJson(record.readAll()).object());
        }
    }
    // The files' sha256 in 12 digits, as a git commit is named: its 64 ran past the window's
    // edge at 1280x800. The tooltip has it whole, in the words of `show`.
    QString brief = code;
    brief.replace(QRegularExpression(QStringLiteral("\\b([0-9a-f]{12})[0-9a-f]{52}\\b")),
                  QStringLiteral("\\1"));
    codeLabel_->setText(code.isEmpty() ? QString() : tr("Code: %1").arg(brief));
    codeLabel_->setToolTip(
        tr("%1\nThe code the run used; `tunedeck-engine rerun FOLDER` re-creates it and runs the "
           "same experiment again.")
            .arg(tr("Code: %1").arg(code)));
    codeLabel_->setVisible(!code.isEmpty());
    if (!shown) {
        setWindowTitle(tr("Tunedeck"));
    } else if (ofEngine_) {
        setWindowTitle(tr("%1 - Tunedeck").arg(experiment_));
    } else {
        setWindowTitle(tr("%1 (read-only) - Tunedeck").arg(experiment_));
    }
}

void MainWindow::showMonitor(const QString& experiment) {
    experiment_ = experiment;
    budget_ = {};
    data_.clear();
    usage_.clear();
    trialHealth_.clear();
    health_->recomputeNow();
    plots_->clear();
    parallel_->clearBrushes();  // its ranges were of the other experiment's axes
    model_->reset();
    // The reset empties the table's selection without a signal, so every view that follows the
    // selection kept the old experiment's trial ids and showed this one's trials of those ids.
    onSelectionChanged();
    nodes_->refresh();
    pages_->setCurrentIndex(1);
}

}  // namespace tunedeck::app
