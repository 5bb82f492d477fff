#include "runtime/run_control.h"

#include <unistd.h>

#include <QJsonDocument>
#include <QJsonObject>
#include <cerrno>
#include <cstdio>

#include "runtime/experiment_runner.h"

namespace tunedeck {

namespace {

constexpr qsizetype kMaxOrderLine = 64 * 1024;

}  // namespace

RunControl::RunControl(ExperimentRunner* runner, const QString& name, const QString& folder,
                       QObject* parent)
    : QObject(parent), runner_(runner), framer_(kMaxOrderLine) {
    answer(QJsonObject{{"started", QJsonObject{{"experiment", name}, {"folder", folder}}}});
    connect(runner, &ExperimentRunner::slotDemandChanged, this, [](const SlotDemand& d) {
        answer(QJsonObject{
            {"demand",
             QJsonObject{
                 {"running", d.running}, {"wanted", d.wanted}, {"cpu", d.cpu}, {"gpu", d.gpu}}}});
    });
    notifier_ = std::make_unique<QSocketNotifier>(STDIN_FILENO, QSocketNotifier::Read);
    connect(notifier_.get(), &QSocketNotifier::activated, this, &RunControl::readOrders);
}

void RunControl::answer(const QJsonObject& control) {
    const QByteArray line =
        QJsonDocument(QJsonObject{{"control", control}}).toJson(QJsonDocument::Compact) + '\n';
    std::fwrite(line.constData(), 1, std::size_t(line.size()), stdout);
    std::fflush(stdout);
}

void RunControl::readOrders() {
    char buffer[8192];
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
        return;
    }
    if (n <= 0) {
        notifier_->setEnabled(false);  // the server went away; the experiment goes on
        return;
    }
    framer_.feed(
        QByteArrayView(buffer, n), [this](QByteArrayView line) { onLine(line); },
        [this] {
            ++lineNumber_;
            answer(QJsonObject{
                {"ok", false},
                {"error",
                 tr("control line %1: longer than %2 bytes").arg(lineNumber_).arg(kMaxOrderLine)}});
        });
}

void RunControl::onLine(QByteArrayView line) {
    ++lineNumber_;
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(line.toByteArray(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        answer(QJsonObject{
            {"ok", false},
            {"error", parseError.error != QJsonParseError::NoError
                          ? tr("control line %1, byte %2: %3")
                                .arg(lineNumber_)
                                .arg(parseError.offset + 1)
                                .arg(parseError.errorString())
                          : tr("control line %1: not a JSON object").arg(lineNumber_)}});
        return;
    }
    const QJsonObject order = document.object();
    const QJsonValue id = order.value("id");
    const QString op = order.value("op").toString();
    const QString trial = order.value("trial").toString();
    Status outcome = Status::ok();
    if (op == QLatin1String("stop_trial")) {
        outcome = runner_->stopTrial(trial);
    } else if (op == QLatin1String("pause_trial")) {
        outcome = runner_->pauseTrial(trial);
    } else if (op == QLatin1String("resume_trial")) {
        outcome = runner_->resumeTrial(trial);
    } else if (op == QLatin1String("stop")) {
        runner_->stopExperiment();
    } else if (op == QLatin1String("pause")) {
        runner_->interrupt();
    } else if (op == QLatin1String("set_max_workers")) {
        const QJsonValue cap = order.value("max_workers");
        if (!cap.isDouble() || cap.toDouble() < 0 || cap.toDouble() > 1e6 ||
            cap.toDouble() != double(qint64(cap.toDouble()))) {
            outcome =
                Status::invalid(tr("set_max_workers needs \"max_workers\", a whole number from 0"));
        } else {
            outcome =
                runner_->setMaxWorkers(order.value("node_type").toString(), int(cap.toDouble()));
        }
    } else if (op == QLatin1String("set_limits")) {
        LimitsChange change;
        outcome = parseLimitsChange(order, &change);
        if (outcome) {
            outcome = runner_->setLimits(change);
        } else {
            outcome = Status::invalid(tr("set_limits: %1").arg(outcome.message()));
        }
    } else if (op == QLatin1String("set_trial_note")) {
        const QJsonValue note = order.value("note");
        outcome = note.isString()
                      ? runner_->setTrialNote(trial, note.toString())
                      : Status::invalid(tr("set_trial_note needs \"note\", a string (empty: "
                                           "no note)"));
    } else if (op == QLatin1String("share")) {
        const QJsonValue granted = order.value("slots");
        if (!granted.isDouble() || granted.toDouble() < 0 || granted.toDouble() > 1e6) {
            outcome =
                Status::invalid(tr("control line %1: share needs \"slots\", a whole number from 0")
                                    .arg(lineNumber_));
        } else {
            runner_->setSharedSlots(int(granted.toDouble()), order.value("why").toString());
        }
    } else {
        outcome = Status::invalid(
            tr("control line %1: unknown op '%2'").arg(lineNumber_).arg(op.left(40)));
    }
    QJsonObject reply{{"id", id}, {"ok", bool(outcome)}};
    if (!outcome) {
        reply.insert("error", outcome.message());
    }
    answer(reply);
}

}  // namespace tunedeck
