#include "config/yaml_limits.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

namespace tunedeck {

namespace {

// Thrown out of yaml-cpp's parser by the event handler to stop at the first bound broken.
struct Refusal {
    YAML::Mark mark;
    QString message;
};

// What an anchor stands for once expanded: its values and how many levels of collections.
struct AnchorExtent {
    std::int64_t values = 0;
    int height = 0;
};

// Follows the events of yaml-cpp's parser and keeps the expanded size and depth of every
// anchored value, so an alias costs a lookup here while the nodes it would multiply are counted.
class BoundedEvents : public YAML::EventHandler {
  public:
    BoundedEvents(const QByteArray& utf8, const InputLimits& limits, YamlTextShape* shape,
                  const TextPositions& positions)
        : utf8_(utf8), limits_(limits), shape_(shape), positions_(positions) {}

    void OnDocumentStart(const YAML::Mark& mark) override {
        // yaml-cpp 0.7 leaves a token no rule consumes (a ',' outside [...] or {...}) in its
        // scanner and returns an empty document; YAML::LoadAll then asks for the next document
        // for ever, allocating a node each time. A document that starts where the one before
        // started is that loop.
        if (documents_ > 0 && mark.pos == previousStart_) {
            if (documents_ == 2) {
                shape_->secondDocument.reset();  // that was the stray token, not a document
            }
            throw Refusal{mark, unexpectedToken(mark)};
        }
        if (documents_ == 1) {
            shape_->secondDocument = positions_.at(mark.line, mark.column);
        }
        previousStart_ = mark.pos;
        ++documents_;
        anchors_.clear();  // anchors belong to their document
        open_.clear();
    }
    void OnDocumentEnd() override {}

    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { leaf(mark, anchor); }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  const std::string& value) override {
        if (nextIsKey() && qsizetype(value.size()) > limits_.maxKeyBytes) {
            throw Refusal{mark, QStringLiteral("a key of %1 bytes; keys may hold at most %2 "
                                               "bytes (the limit for %3)")
                                    .arg(value.size())
                                    .arg(limits_.maxKeyBytes)
                                    .arg(inputLimitsScope())};
        }
        leaf(mark, anchor);
    }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        for (const Frame& frame : open_) {
            if (frame.anchor == anchor) {
                throw Refusal{mark, QStringLiteral("alias %1 refers to the %2 that contains it "
                                                   "(&%3, line %4); a value cannot contain itself")
                                        .arg(aliasText(mark), frame.kind, aliasText(mark).mid(1))
                                        .arg(frame.mark.line + 1)};
            }
        }
        countChild();
        const auto it = anchors_.find(anchor);
        const AnchorExtent extent = it == anchors_.end() ? AnchorExtent{1, 0} : it->second;
        add(mark, extent.values, aliasText(mark));
        reach(mark, int(open_.size()) + extent.height, aliasText(mark));
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override {
        openCollection(mark, anchor, QStringLiteral("list"));
    }
    void OnSequenceEnd() override { closeCollection(); }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override {
        openCollection(mark, anchor, QStringLiteral("mapping"));
    }
    void OnMapEnd() override { closeCollection(); }

  private:
    struct Frame {
        YAML::anchor_t anchor;
        std::int64_t valuesBefore;
        int deepest;  // the deepest level reached inside, counted from the document
        YAML::Mark mark;
        QString kind;
        std::int64_t children = 0;  // in a mapping, keys and values alternate
    };

    // Whether the value about to be read is a key of the mapping that holds it.
    bool nextIsKey() const {
        return !open_.empty() && open_.back().kind == QLatin1String("mapping") &&
               open_.back().children % 2 == 0;
    }

    // Every value read counts as one child of the collection that holds it.
    void countChild() {
        if (!open_.empty()) {
            ++open_.back().children;
        }
    }

    void leaf(const YAML::Mark& mark, YAML::anchor_t anchor) {
        countChild();
        add(mark, 1, QString());
        if (anchor != YAML::NullAnchor) {
            anchors_[anchor] = {1, 0};
        }
    }

    void openCollection(const YAML::Mark& mark, YAML::anchor_t anchor, const QString& kind) {
        countChild();
        add(mark, 1, QString());
        open_.push_back({anchor, values_ - 1, int(open_.size()) + 1, mark, kind, 0});
        reach(mark, int(open_.size()), QString());
    }

    void closeCollection() {
        if (open_.empty()) {
            return;
        }
        const Frame frame = open_.back();
        open_.pop_back();
        if (!open_.empty()) {
            open_.back().deepest = std::max(open_.back().deepest, frame.deepest);
        }
        if (frame.anchor != YAML::NullAnchor) {
            anchors_[frame.anchor] = {values_ - frame.valuesBefore,
                                      frame.deepest - int(open_.size())};
        }
    }

    // Counts `values` more; `alias` names the alias that brought them, if one did.
    void add(const YAML::Mark& mark, std::int64_t values, const QString& alias) {
        values_ += values;  // each step adds at most maxValues + 1: no overflow
        if (values_ <= limits_.maxValues) {
            return;
        }
        const QString limit = QStringLiteral("%1 values (the limit for %2)")
                                  .arg(limits_.maxValues)
                                  .arg(inputLimitsScope());
        throw Refusal{mark, alias.isEmpty()
                                ? QStringLiteral("the file holds more than %1").arg(limit)
                                : QStringLiteral("alias %1 repeats what it names until the file "
                                                 "holds more than %2")
                                      .arg(alias, limit)};
    }

    void reach(const YAML::Mark& mark, int depth, const QString& alias) {
        if (!open_.empty()) {
            open_.back().deepest = std::max(open_.back().deepest, depth);
        }
        if (depth <= limits_.maxDepth) {
            return;
        }
        const QString limit = QStringLiteral("%1 levels of lists and mappings (the limit for %2)")
                                  .arg(limits_.maxDepth)
                                  .arg(inputLimitsScope());
        throw Refusal{
            mark,
            alias.isEmpty()
                ? QStringLiteral("nested deeper than %1").arg(limit)
                : QStringLiteral("alias %1 nests what it names deeper than %2").arg(alias, limit)};
    }

    // "*name" as written at the alias.
    QString aliasText(const YAML::Mark& mark) const {
        qsizetype end = mark.pos + 1;
        static const QByteArray stops(" \t\r\n,[]{}");
        while (end < utf8_.size() && !stops.contains(utf8_[end])) {
            ++end;
        }
        return QString::fromUtf8(utf8_.mid(mark.pos, end - mark.pos));
    }

    QString unexpectedToken(const YAML::Mark& mark) const {
        const char c = mark.pos >= 0 && mark.pos < utf8_.size() ? utf8_[mark.pos] : '\0';
        if (c == ',') {
            return QStringLiteral(
                "invalid YAML: unexpected ','; outside [...] and {...} a ',' "
                "cannot start a value (quote text that begins with one)");
        }
        return QStringLiteral("invalid YAML: unexpected '%1'").arg(printableText(QString(c)));
    }

    const QByteArray& utf8_;
    const InputLimits& limits_;
    YamlTextShape* shape_;
    const TextPositions& positions_;
    int documents_ = 0;
    int previousStart_ = -1;
    std::int64_t values_ = 0;
    std::vector<Frame> open_;
    std::map<YAML::anchor_t, AnchorExtent> anchors_;
};

}  // namespace

bool checkYamlText(const TextPositions& positions, const QByteArray& utf8, ProblemList* problems,
                   YamlTextShape* shape, const InputLimits& limits) {
    if (const auto tooLarge = inputSizeProblem(utf8.size(), limits)) {
        problems->add({positions.file()}, QString(), *tooLarge);
        return false;
    }
    std::istringstream stream(utf8.toStdString());
    BoundedEvents events(utf8, limits, shape, positions);
    try {
        YAML::Parser parser(stream);
        while (parser.HandleNextDocument(events)) {
        }
        return true;
    } catch (const Refusal& refusal) {
        problems->add(positions.at(refusal.mark.line, refusal.mark.column), QString(),
                      refusal.message);
    } catch (const YAML::Exception&) {
        return true;  // the real parse stops at the same place and says why
    }
    return false;
}

}  // namespace tunedeck
