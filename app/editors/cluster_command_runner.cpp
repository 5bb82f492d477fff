#include "editors/cluster_command_runner.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QVBoxLayout>
#include <iterator>

namespace tunedeck::app {

ClusterCommandRunner::ClusterCommandRunner(QObject* parent) : QObject(parent) {
    killTimer_.setSingleShot(true);
    connect(&killTimer_, &QTimer::timeout, this, [this] {
        if (process_ && process_->state() != QProcess::NotRunning) {
            process_->kill();
        }
    });
}

ClusterCommandRunner::~ClusterCommandRunner() {
    if (process_) {
        process_->disconnect(this);
        if (process_->state() != QProcess::NotRunning) {
            process_->kill();
            process_->waitForFinished(1000);
        }
    }
}

bool ClusterCommandRunner::start(const QString& engineBinary, const QString& verb,
                                 const QString& clusterFile) {
    if (isRunning()) {
        return false;
    }
    if (process_) {
        process_->deleteLater();
    }
    verb_ = verb;
    cancelled_ = false;
    sawUnknownHostKey_ = false;
    pending_[0].clear();
    pending_[1].clear();
    process_ = new QProcess(this);
    // The cluster file's folder, as if the user ran the command beside it.
    process_->setWorkingDirectory(QFileInfo(clusterFile).absolutePath());
    connect(process_, &QProcess::readyReadStandardOutput, this,
            [this] { readLines(QProcess::StandardOutput, false); });
    connect(process_, &QProcess::readyReadStandardError, this,
            [this] { readLines(QProcess::StandardError, false); });
    connect(process_, &QProcess::finished, this, &ClusterCommandRunner::onFinished);
    connect(
        process_, &QProcess::errorOccurred, this, [this, engineBinary](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart) {
                running_ = false;
                emit finished(false, -1,
                              tr("Cannot start %1: %2").arg(engineBinary, process_->errorString()));
            }
        });
    const QStringList arguments{QStringLiteral("cluster"), verb, clusterFile};
    running_ = true;
    emit started(QStringLiteral("tunedeck-engine ") + arguments.join(QLatin1Char(' ')));
    process_->start(engineBinary, arguments);
    return true;
}

void ClusterCommandRunner::cancel() {
    if (!isRunning()) {
        return;
    }
    cancelled_ = true;
    process_->terminate();
    killTimer_.start(kKillAfterMs);
}

bool ClusterCommandRunner::isRunning() const {
    return running_;
}

void ClusterCommandRunner::readLines(QProcess::ProcessChannel channel, bool atEnd) {
    const bool isError = channel == QProcess::StandardError;
    QByteArray& pending = pending_[isError ? 1 : 0];
    process_->setReadChannel(channel);
    pending += process_->readAll();
    qsizetype newline;
    while ((newline = pending.indexOf('\n')) >= 0) {
        const QString text = QString::fromUtf8(pending.left(newline));
        pending.remove(0, newline + 1);
        sawUnknownHostKey_ = sawUnknownHostKey_ || text.contains(QLatin1String("is not known"));
        emit line(text, isError);
    }
    if (atEnd && !pending.isEmpty()) {
        emit line(QString::fromUtf8(pending), isError);
        pending.clear();
    }
}

void ClusterCommandRunner::onFinished(int exitCode, QProcess::ExitStatus status) {
    killTimer_.stop();
    running_ = false;
    readLines(QProcess::StandardOutput, true);
    readLines(QProcess::StandardError, true);
    const bool ok = status == QProcess::NormalExit && exitCode == 0 && !cancelled_;
    QString summary;
    if (cancelled_) {
        summary = tr("cluster %1 cancelled.").arg(verb_);
    } else if (status != QProcess::NormalExit) {
        summary = tr("cluster %1 ended abnormally (the engine crashed).").arg(verb_);
    } else if (exitCode == 0) {
        summary = tr("cluster %1 succeeded.").arg(verb_);
    } else {
        summary = tr("cluster %1 failed (exit status %2).").arg(verb_).arg(exitCode);
        if (sawUnknownHostKey_) {
            summary += QLatin1Char(' ') +
                       tr("Use Test connection to see an unknown host key and accept it.");
        }
    }
    emit finished(ok, exitCode, summary);
}

namespace {

// A colour per node, the same for a node every time, readable on light and dark backgrounds.
QColor nodeColour(const QString& node) {
    static const QColor colours[] = {QColor(0x1e, 0x88, 0xe5), QColor(0x8e, 0x24, 0xaa),
                                     QColor(0x00, 0x89, 0x7b), QColor(0xef, 0x6c, 0x00),
                                     QColor(0x6d, 0x4c, 0x41), QColor(0x3f, 0x51, 0xb5)};
    return colours[qHash(node) % std::size(colours)];
}

const QColor kErrorColour(0xc6, 0x28, 0x28);

}  // namespace

ClusterOutputPane::ClusterOutputPane(ClusterCommandRunner* runner, QWidget* parent)
    : QWidget(parent), runner_(runner) {
    text_ = new QPlainTextEdit;
    text_->setObjectName(QStringLiteral("clusterOutput"));
    text_->setReadOnly(true);
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    text_->setMaximumBlockCount(20000);  // a chatty setup must not grow without bound
    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("clusterCommandStatus"));
    status_->setWordWrap(true);
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setObjectName(QStringLiteral("cancelClusterCommand"));
    cancel_->setEnabled(false);
    connect(cancel_, &QPushButton::clicked, runner_, &ClusterCommandRunner::cancel);

    auto* bottom = new QHBoxLayout;
    bottom->addWidget(status_, 1);
    bottom->addWidget(cancel_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(text_, 1);
    layout->addLayout(bottom);

    connect(runner_, &ClusterCommandRunner::started, this, [this](const QString& commandLine) {
        text_->clear();
        append(QStringLiteral("$ ") + commandLine, false);
        status_->setText(tr("Running…"));
        status_->setStyleSheet(QString());
        cancel_->setEnabled(true);
    });
    connect(runner_, &ClusterCommandRunner::line, this, &ClusterOutputPane::append);
    connect(runner_, &ClusterCommandRunner::finished, this,
            [this](bool ok, int, const QString& summary) {
                status_->setText(summary);
                status_->setStyleSheet(ok ? QStringLiteral("color: #2e7d32;")
                                          : QStringLiteral("color: #c62828;"));
                cancel_->setEnabled(false);
            });
}

QString ClusterOutputPane::statusText() const {
    return status_->text();
}

void ClusterOutputPane::append(const QString& line, bool isError) {
    static const QRegularExpression prefix(QStringLiteral("^\\[([^\\]]+)\\] "));
    QScrollBar* bar = text_->verticalScrollBar();
    const bool atBottom = bar->value() == bar->maximum();
    QTextCursor cursor(text_->document());
    cursor.movePosition(QTextCursor::End);
    if (!text_->document()->isEmpty()) {
        cursor.insertBlock();
    }
    QTextCharFormat plain;
    if (isError) {
        plain.setForeground(kErrorColour);
    }
    const QRegularExpressionMatch match = prefix.match(line);
    if (match.hasMatch()) {
        QTextCharFormat node = plain;
        node.setForeground(nodeColour(match.captured(1)));
        node.setFontWeight(QFont::Bold);
        cursor.insertText(match.captured(0), node);
        cursor.insertText(line.mid(match.capturedLength()), plain);
    } else {
        cursor.insertText(line, plain);
    }
    if (atBottom) {  // follow the output unless the user scrolled up to read
        bar->setValue(bar->maximum());
    }
}

}  // namespace tunedeck::app
