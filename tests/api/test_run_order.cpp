// The orders serve gives an experiment it started (api/run_order.h), as the control API's clients
// write them (CONTROL_API.md): each reaches the run as the same order after the trip through its
// stdin line, and a malformed one is refused with a message that names the field.
#include <QJsonDocument>
#include <QtTest>

#include "api/run_order.h"

using namespace tunedeck;
using namespace tunedeck::api;

namespace {

QJsonObject json(const char* text) {
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

// What the run reads from the line the server writes for `request`.
RunOrder throughTheRun(const QJsonObject& request, qint64 number) {
    QString problem;
    std::optional<RunOrder> order = readRunOrder(request, &problem);
    if (!order) {
        qFatal("refused: %s", qPrintable(problem));
    }
    order->id = number;
    const QJsonObject line = QJsonDocument::fromJson(runOrderLine(*order)).object();
    std::optional<RunOrder> read = readRunOrder(line, &problem);
    if (!read) {
        qFatal("the run refused the server's line: %s", qPrintable(problem));
    }
    read->id = runOrderId(line);
    return *read;
}

QString refusal(const char* text) {
    QString problem;
    const std::optional<RunOrder> order = readRunOrder(json(text), &problem);
    return order ? QString() : problem;
}

}  // namespace

class TestRunOrder : public QObject {
    Q_OBJECT
  private slots:
    void aClientsRequestReachesTheRunAsTheSameOrder() {
        const RunOrder stop = throughTheRun(
            json(R"({"id":"a","op":"stop_trial","experiment":"mnist","trial":"t00003"})"), 7);
        QCOMPARE(stop.op, RunOrder::Op::StopTrial);
        QCOMPARE(stop.trial, QStringLiteral("t00003"));
        QCOMPARE(stop.id, qint64(7));

        const RunOrder limits =
            throughTheRun(json(R"({"op":"set_limits","experiment":"mnist","num_samples":40})"), 8);
        QCOMPARE(limits.op, RunOrder::Op::SetLimits);
        QCOMPARE(limits.limits.numSamples, std::optional<int>(40));
        QVERIFY(!limits.limits.maxConcurrentTrials);

        const RunOrder cap = throughTheRun(
            json(R"({"op":"set_max_workers","experiment":"e","node_type":"gpu","max_workers":0})"),
            9);
        QCOMPARE(cap.op, RunOrder::Op::SetMaxWorkers);
        QCOMPARE(cap.nodeType, QStringLiteral("gpu"));
        QCOMPARE(cap.maxWorkers, 0);

        const RunOrder note = throughTheRun(
            json(R"({"op":"set_trial_note","experiment":"e","trial":"t1","note":"lr too high"})"),
            10);
        QCOMPARE(note.note, QStringLiteral("lr too high"));

        const RunOrder share =
            throughTheRun(json(R"({"op":"share","slots":3,"why":"2 of 5 slots: alice"})"), 0);
        QCOMPARE(share.op, RunOrder::Op::Share);
        QCOMPARE(share.granted, 3);
        QCOMPARE(share.why, QStringLiteral("2 of 5 slots: alice"));

        QCOMPARE(throughTheRun(json(R"({"op":"pause","experiment":"e"})"), 1).op,
                 RunOrder::Op::Pause);
        QCOMPARE(throughTheRun(json(R"({"op":"stop","experiment":"e"})"), 1).op,
                 RunOrder::Op::Stop);
    }

    void aMalformedOrderIsRefusedNamingTheField() {
        QVERIFY(refusal(R"({"op":"stop_trial"})").contains("stop_trial needs \"trial\""));
        QVERIFY(refusal(R"({"op":"resume_trial","trial":3})").contains("\"trial\""));
        QVERIFY(refusal(R"({"op":"set_max_workers","max_workers":-1})")
                    .contains("\"max_workers\", a whole number from 0"));
        QVERIFY(refusal(R"({"op":"set_max_workers","max_workers":2.5})").contains("max_workers"));
        QVERIFY(refusal(R"({"op":"set_max_workers","max_workers":2,"node_type":[1]})")
                    .contains("\"node_type\" must be a string"));
        QVERIFY(refusal(R"({"op":"set_limits","num_samples":"many"})")
                    .contains("num_samples must be a whole number"));
        QVERIFY(refusal(R"({"op":"set_limits"})").contains("max_concurrent_trials"));
        QVERIFY(refusal(R"({"op":"set_trial_note","trial":"t1"})").contains("\"note\""));
        QVERIFY(refusal(R"({"op":"share","slots":"all"})").contains("\"slots\""));
        QVERIFY(refusal(R"({"op":"explode"})").contains("unknown op 'explode'"));
    }
};

QTEST_APPLESS_MAIN(TestRunOrder)
#include "test_run_order.moc"
