#include "fuzz_inputs.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api/control_protocol.h"
#include "api/run_order.h"
#include "cluster/node_link.h"
#include "config/cluster_loader.h"
#include "config/experiment_loader.h"
#include "config/nni_search_space.h"
#include "config/problem_list.h"
#include "core/folder_name.h"
#include "core/line_framer.h"
#include "worker/json_line.h"
#include "worker/tuning.h"

namespace tunedeck::fuzz {

namespace {

// Where the loaders believe the file lives. A folder that does not exist: relative paths in the
// input resolve the same on every machine, and nothing of the checkout is read by accident.
const QString kExperimentPath = QStringLiteral("/tunedeck-fuzz/experiment.yaml");
const QString kClusterPath = QStringLiteral("/tunedeck-fuzz/cluster.yaml");
const QString kNniPath = QStringLiteral("/tunedeck-fuzz/search_space.json");

[[noreturn]] void broken(const char* promise, const QString& detail) {
    std::fprintf(stderr, "fuzz: broken promise: %s\n%s\n", promise,
                 detail.toUtf8().left(2000).constData());
    std::fflush(stderr);
    std::abort();
}

bool hasControlCharacter(const QString& line) {
    for (const QChar c : line) {
        const char16_t u = c.unicode();
        if (u < 0x20 || u == 0x7f || (u >= 0x80 && u < 0xa0)) {
            return true;
        }
    }
    return false;
}

// What the CLI prints and `validate` answers: one problem per line, each with its place, none
// holding a character that would steer the terminal.
void checkProblemLines(const QStringList& lines, const char* what) {
    for (const QString& line : lines) {
        if (line.isEmpty() || !line.contains(QLatin1String(": ")) || hasControlCharacter(line)) {
            broken(what, line);
        }
    }
}

// Chunk lengths drawn from the input itself, so one input is always read the same way and the
// framers meet lines split at every kind of place (as reads of a pipe or socket split them).
std::vector<QByteArrayView> chunksOf(QByteArrayView bytes) {
    std::uint32_t state = std::uint32_t(bytes.size()) * 2654435761u;
    for (qsizetype i = 0; i < bytes.size() && i < 8; ++i) {
        state = state * 31u + std::uint8_t(bytes[i]);
    }
    std::vector<QByteArrayView> chunks;
    qsizetype at = 0;
    while (at < bytes.size()) {
        state = state * 1664525u + 1013904223u;
        const std::uint32_t pick = state >> 16;
        const qsizetype length = (pick & 3) == 0 ? bytes.size() : 1 + qsizetype(pick % 97);
        const qsizetype take = std::min(length, bytes.size() - at);
        chunks.push_back(bytes.sliced(at, take));
        at += take;
    }
    return chunks;
}

// The lines a framer bounded to `limit` must deliver, whatever the chunks: every complete line
// up to the bound, and one overflow for each longer line, finished or not.
struct Framing {
    std::vector<QByteArray> lines;
    int overlong = 0;
    QByteArray rest;  // the unterminated end, when within the bound
};

Framing expectedFraming(QByteArrayView bytes, qsizetype limit) {
    Framing framing;
    qsizetype start = 0;
    for (;;) {
        const qsizetype nl = bytes.indexOf('\n', start);
        if (nl < 0) {
            break;
        }
        if (nl - start > limit) {
            ++framing.overlong;
        } else {
            framing.lines.push_back(bytes.sliced(start, nl - start).toByteArray());
        }
        start = nl + 1;
    }
    if (bytes.size() - start > limit) {
        ++framing.overlong;
    } else {
        framing.rest = bytes.sliced(start).toByteArray();
    }
    return framing;
}

QString describeFraming(const Framing& want, const Framing& got) {
    return QStringLiteral("want %1 lines, %2 overlong; got %3 lines, %4 overlong")
        .arg(want.lines.size())
        .arg(want.overlong)
        .arg(got.lines.size())
        .arg(got.overlong);
}

// The framer (core/line_framer.h) against the reference, with a small bound taken from the input
// so that long lines, lines at the bound and lines across chunks all occur; fed as the engine
// feeds it (Qt views, callbacks that return nothing, what it holds read with buffered()) and as
// the agent feeds it (std::string_view, callbacks that return true, the rest taken at the end),
// and stopped by a callback that returns false.
void checkFramers(QByteArrayView bytes) {
    const qsizetype limit = bytes.isEmpty() ? 1 : 1 + std::uint8_t(bytes.back()) % 48;
    const Framing want = expectedFraming(bytes, limit);

    Framing engine;
    LineFramer engineFramer(limit);
    for (const QByteArrayView chunk : chunksOf(bytes)) {
        engineFramer.feed(
            chunk, [&](QByteArrayView line) { engine.lines.push_back(line.toByteArray()); },
            [&] { ++engine.overlong; });
    }
    if (engine.lines != want.lines || engine.overlong != want.overlong ||
        engineFramer.buffered() != want.rest.size()) {
        broken("the engine's framing delivers every line within the bound, whatever the chunks",
               describeFraming(want, engine));
    }

    Framing agent;
    LineFramer agentFramer{std::size_t(limit)};
    for (const QByteArrayView chunk : chunksOf(bytes)) {
        agentFramer.feed(
            std::string_view(chunk.data(), std::size_t(chunk.size())),
            [&](std::string_view line) {
                agent.lines.push_back(QByteArray(line.data(), qsizetype(line.size())));
                return true;
            },
            [&] {
                ++agent.overlong;
                return true;
            });
    }
    const std::string rest = agentFramer.takePartial();
    agent.rest = QByteArray(rest.data(), qsizetype(rest.size()));
    if (agent.lines != want.lines || agent.overlong != want.overlong || agent.rest != want.rest) {
        broken("the agent's framing delivers every line within the bound, whatever the chunks",
               describeFraming(want, agent));
    }

    // Stopped at the first line: nothing after it is delivered, whatever the chunks.
    if (!want.lines.empty()) {
        LineFramer stopping{std::size_t(limit)};
        std::vector<QByteArray> delivered;
        for (const QByteArrayView chunk : chunksOf(bytes)) {
            const bool goOn = stopping.feed(
                chunk,
                [&](std::string_view line) {
                    delivered.push_back(QByteArray(line.data(), qsizetype(line.size())));
                    return false;
                },
                [] { return true; });
            if (!goOn) {
                break;
            }
        }
        if (delivered.size() != 1 || delivered[0] != want.lines[0]) {
            broken("a callback that returns false stops the framing at that line",
                   QStringLiteral("%1 lines delivered").arg(delivered.size()));
        }
    }
}

QString fromStd(std::string_view text) {
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// One line of the trial channel, as Worker::relayLine judges it. Returns false when the agent
// fails the trial on it (and reads no further), with `message` saying why.
bool relayTrialLine(std::string_view line, int lineNumber, QString* message) {
    const std::string_view body = worker::trimmed(line);
    if (body.empty()) {
        return true;
    }
    std::string detail;
    const worker::LineCheck check = worker::checkObjectLine(line, worker::kMaxLineDepth, &detail);
    if (check != worker::LineCheck::Object) {
        if ((check == worker::LineCheck::ForbiddenByte ||
             check == worker::LineCheck::UnreadableNumber) &&
            (detail.empty() || hasControlCharacter(fromStd(detail)))) {
            broken("a refused line's detail says what is wrong, in printable text",
                   fromStd(detail));
        }
        // The trial_error event quotes the line; the engine must be able to read that event.
        const std::string event = node::encodeEvent(node::TrialError{
            std::string("t00001"), std::string(worker::preview(body, worker::kErrorPreviewBytes))});
        if (!event.ends_with('\n') ||
            !parseAgentLine(QByteArrayView(event.data(), qsizetype(event.size()) - 1))) {
            broken("the agent's trial_error event is a line the engine reads", fromStd(event));
        }
        const char* what = check == worker::LineCheck::NotAnObject ? "is not a JSON object"
                           : check == worker::LineCheck::TooDeep   ? "is nested too deeply"
                           : check == worker::LineCheck::NotJson   ? "is not JSON"
                                                                   : "holds";
        *message = QStringLiteral("line %1 of the trial channel %2 %3")
                       .arg(lineNumber)
                       .arg(QLatin1String(what), fromStd(detail));
        return false;
    }
    // Relayed as the agent relays it (the relay prefix, the body verbatim, '}').
    const std::string relayed = node::trialLinePrefix(std::string("t00001")) + std::string(body) +
                                std::string(node::kTrialLineSuffix);
    const node::Decoded<node::Event> read =
        parseAgentLine(QByteArrayView(relayed.data(), qsizetype(relayed.size())));
    const auto* trialLine = read ? std::get_if<node::TrialLine>(&*read.value) : nullptr;
    if (trialLine == nullptr || !relayedTrialLine(*trialLine)) {
        broken("a line the agent relays is a message the engine reads (core/trial_line_rule.h)",
               fromStd(worker::preview(body, 400)));
    }
    return true;
}

}  // namespace

// What both loaders promise of a result: it loads exactly when no problem is an error, and each
// problem's line (what the CLI prints and `validate` answers) is one printable line with its
// place.
template <typename Spec>
Verdict loadVerdict(const LoadResult<Spec>& result) {
    checkProblemLines(result.warningLines(), "every warning is one printable line with its place");
    checkProblemLines(result.errorLines(), "every problem is one printable line with its place");
    const QString errors = result.errorLines().join(QLatin1Char('\n'));
    if (result.spec.has_value() == result.hasErrors()) {
        broken("a file loads exactly when it has no problem", errors);
    }
    return {result.spec.has_value(), errors};
}

Verdict experimentFile(QByteArrayView bytes) {
    return loadVerdict(loadExperimentText(QString::fromUtf8(bytes), kExperimentPath));
}

Verdict clusterFile(QByteArrayView bytes) {
    return loadVerdict(loadClusterText(QString::fromUtf8(bytes), kClusterPath));
}

Verdict nniSearchSpace(QByteArrayView bytes) {
    ProblemList problems;
    SearchSpace space;
    const bool read = readNniSearchSpaceText(kNniPath, bytes.toByteArray(), &problems, &space);
    if (read != problems.isEmpty()) {
        broken("an NNI search space is read exactly when it has no problem", problems.text());
    }
    checkProblemLines(problems.lines(), "every problem is one printable line with its place");
    return {read, problems.text()};
}

Verdict agentTrialLines(QByteArrayView bytes) {
    checkFramers(bytes);
    LineFramer framer(worker::kMaxLineBytes);
    Verdict verdict{true, QString()};
    int lineNumber = 0;
    auto relay = [&](std::string_view line) {
        ++lineNumber;
        if (!relayTrialLine(line, lineNumber, &verdict.message)) {
            verdict.accepted = false;
            return false;
        }
        return true;
    };
    for (const QByteArrayView chunk : chunksOf(bytes)) {
        const bool goOn =
            framer.feed(std::string_view(chunk.data(), std::size_t(chunk.size())), relay, [&] {
                verdict = {false, QStringLiteral("a line longer than 1 MiB")};
                return false;
            });
        if (!goOn) {
            return verdict;
        }
    }
    const std::string last = framer.takePartial();
    if (!last.empty()) {
        relay(last);
    }
    return verdict;
}

Verdict engineAgentLines(QByteArrayView bytes) {
    checkFramers(bytes);
    LineFramer framer(kMaxNodeLinkLine);
    Verdict verdict{true, QString()};
    int lineNumber = 0;
    for (const QByteArrayView chunk : chunksOf(bytes)) {
        framer.feed(
            chunk,
            [&](QByteArrayView line) {
                ++lineNumber;
                if (line.isEmpty() || !verdict.accepted) {
                    return;
                }
                if (const node::Decoded<node::Event> event = parseAgentLine(line); !event) {
                    verdict = {false, QStringLiteral("line %1: %2")
                                          .arg(lineNumber)
                                          .arg(QString::fromStdString(event.error.message))};
                }
            },
            [&] {
                verdict = {false, QStringLiteral("a line longer than the node link's bound")};
            });
    }
    return verdict;
}

// An order serve forwards to a running experiment is refused with a reason, or reaches the run
// as the same order (api/run_order.h).
void checkRunOrder(const QJsonObject& request) {
    QString problem;
    const std::optional<api::RunOrder> order = api::readRunOrder(request, &problem);
    if (!order) {
        if (problem.isEmpty()) {
            broken("a refused run order says why",
                   QString::fromUtf8(QJsonDocument(request).toJson()));
        }
        return;
    }
    const QByteArray line = api::runOrderLine(*order);
    QString again;
    const std::optional<api::RunOrder> read =
        api::readRunOrder(QJsonDocument::fromJson(line).object(), &again);
    if (!read || read->op != order->op || read->trial != order->trial ||
        read->note != order->note || read->maxWorkers != order->maxWorkers ||
        read->nodeType != order->nodeType || read->limits.numSamples != order->limits.numSamples ||
        read->limits.maxConcurrentTrials != order->limits.maxConcurrentTrials) {
        broken("a run order reads back as written", QString::fromUtf8(line) + again);
    }
}

Verdict controlRequests(QByteArrayView bytes) {
    LineFramer framer(api::kMaxRequestLine);
    Verdict verdict{true, QString()};
    int lineNumber = 0;
    // Every answer goes back as one line the client reads (control_server.cpp: Compact + '\n').
    auto checkAnswer = [](const QJsonObject& answer) {
        const QByteArray line = QJsonDocument(answer).toJson(QJsonDocument::Compact);
        if (line.contains('\n') || !QJsonDocument::fromJson(line).isObject()) {
            broken("every answer is one JSON line", QString::fromUtf8(line));
        }
    };
    for (const QByteArrayView chunk : chunksOf(bytes)) {
        framer.feed(
            chunk,
            [&](QByteArrayView line) {
                ++lineNumber;
                if (line.trimmed().isEmpty()) {
                    return;
                }
                QJsonObject error;
                const std::optional<api::Request> request =
                    api::parseRequest(line, lineNumber, &error);
                if (!request) {
                    const QJsonObject what = error.value(QStringLiteral("error")).toObject();
                    if (error.value(QStringLiteral("ok")) != QJsonValue(false) ||
                        what.value(QStringLiteral("code")).toString() != api::code::kBadRequest ||
                        !what.value(QStringLiteral("message"))
                             .toString()
                             .startsWith(QStringLiteral("request line %1").arg(lineNumber))) {
                        broken("a malformed request is answered bad_request, naming its line",
                               QString::fromUtf8(QJsonDocument(error).toJson()));
                    }
                    checkAnswer(error);
                    if (verdict.accepted) {
                        verdict = {false, what.value(QStringLiteral("message")).toString()};
                    }
                    return;
                }
                if (request->op.isEmpty()) {
                    broken("a parsed request has an op", QString::fromUtf8(line.toByteArray()));
                }
                checkAnswer(api::answerOk(request->id));
                checkRunOrder(request->arguments);
                for (const char* key : {"experiment", "name"}) {
                    const QString name = request->text(QString::fromLatin1(key));
                    if (!name.isEmpty()) {
                        checkAnswer(api::answerError(request->id, api::code::kBadRequest,
                                                     folderNameProblem(name)));
                    }
                }
            },
            [&] {
                verdict = {false, QStringLiteral("a request line over the bound")};
            });
    }
    return verdict;
}

const std::vector<Target>& targets() {
    static const std::vector<Target> all = {
        {"experiment_file", experimentFile},      {"cluster_file", clusterFile},
        {"nni_search_space", nniSearchSpace},     {"agent_trial_lines", agentTrialLines},
        {"engine_agent_lines", engineAgentLines}, {"control_requests", controlRequests},
    };
    return all;
}

}  // namespace tunedeck::fuzz
