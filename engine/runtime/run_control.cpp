#include "runtime/run_control.h"

#include <unistd.h>

#include <QJsonDocument>
#include <QJsonObject>
#include <cerrno>
#include <cstdio>

#include "api/run_order.h"
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
    const qint64 id = api::runOrderId(document.object());
    QString problem;
    const std::optional<api::RunOrder> order = api::readRunOrder(document.object(), &problem);
    const Status outcome =
        order ? carryOut(*order)
              : Status::invalid(tr("control line %1: %2").arg(lineNumber_).arg(problem));
    QJsonObject reply{{"id", id}, {"ok", bool(outcome)}};
    if (!outcome) {
        reply.insert("error", outcome.message());
    }
    answer(reply);
}

Status RunControl::carryOut(const api::RunOrder& order) {
    using Op = api::RunOrder::Op;
    switch (order.op) {
        case Op::StopTrial:
            return runner_->stopTrial(order.trial);
        case Op::PauseTrial:
            return runner_->pauseTrial(order.trial);
        case Op::ResumeTrial:
            return runner_->resumeTrial(order.trial);
        case Op::Stop:
            runner_->stopExperiment();
            return Status::ok();
        case Op::Pause:
            runner_->interrupt();
            return Status::ok();
        case Op::SetMaxWorkers:
            return runner_->setMaxWorkers(order.nodeType, order.maxWorkers);
        case Op::SetLimits:
            if (Status s = runner_->setLimits(order.limits); !s) {
                return Status::invalid(tr("set_limits: %1").arg(s.message()));
            }
            return Status::ok();
        case Op::SetTrialNote:
            return runner_->setTrialNote(order.trial, order.note);
        case Op::Share:
            runner_->setSharedSlots(order.granted, order.why);
            return Status::ok();
    }
    return Status::ok();
}

}  // namespace tunedeck
