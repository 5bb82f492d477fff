#include "config/nni_search_space.h"

#include <QByteArrayView>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "config/experiment_loader.h"
#include "config/input_limits.h"
#include "config/json_limits.h"
#include "config/search_space_yaml.h"
#include "core/counted.h"

namespace tunedeck {

namespace {

// QJsonDocument keeps no positions, so a small scanner records where each value is written: the
// offset of its key (of the value itself in an array), its bytes, and, per object or array, its
// members by key or index. Each key is kept once, with its parent's number, never as a path:
// the full paths of nested long keys took memory quadratic in the file. It runs only on text
// QJsonDocument accepted within the bounds of config/json_limits.h, so it need not diagnose
// anything and recurses at most maxDepth levels.
class JsonPlaces {
  public:
    using Value = int;  // a value of the text; 0 is the whole document, -1 none
    static constexpr Value kNone = -1;

    explicit JsonPlaces(const QByteArray& text) : text_(text) { value(QString(), kNone); }

    // Member `key` of object `parent`, or element `index` of array `parent`.
    Value child(Value parent, const QString& key) const {
        return parent == kNone ? kNone : children_.value({parent, key}, kNone);
    }
    Value child(Value parent, qsizetype index) const {
        return child(parent, QString::number(index));
    }
    std::optional<qsizetype> offset(Value value) const {
        return value == kNone ? std::nullopt : std::optional(places_[size_t(value)].at);
    }
    // The value's own bytes; empty for none.
    QByteArray text(Value value) const {
        if (value == kNone) {
            return {};
        }
        const Place& place = places_[size_t(value)];
        return QByteArray::fromRawData(text_.constData() + place.start, place.end - place.start);
    }

  private:
    struct Place {
        qsizetype at;  // its key's opening quote in an object, else its first byte
        qsizetype start;
        qsizetype end;
    };

    void skipBlanks() {
        while (i_ < text_.size() && QByteArrayView(" \t\r\n").contains(text_[i_])) {
            ++i_;
        }
    }
    QString string() {
        ++i_;  // the opening quote
        QString result;
        QByteArray run;
        while (i_ < text_.size() && text_[i_] != '"') {
            if (text_[i_] == '\\' && i_ + 1 < text_.size()) {
                result += QString::fromUtf8(run);
                run.clear();
                const char escaped = text_[++i_];
                switch (escaped) {
                    case 'n':
                        result += QLatin1Char('\n');
                        break;
                    case 't':
                        result += QLatin1Char('\t');
                        break;
                    case 'r':
                        result += QLatin1Char('\r');
                        break;
                    case 'b':
                        result += QLatin1Char('\b');
                        break;
                    case 'f':
                        result += QLatin1Char('\f');
                        break;
                    case 'u':
                        result += QChar(char16_t(text_.mid(i_ + 1, 4).toUShort(nullptr, 16)));
                        i_ += 4;
                        break;
                    default:
                        result += QLatin1Char(escaped);
                        break;
                }
                ++i_;
                continue;
            }
            run += text_[i_++];
        }
        ++i_;  // the closing quote
        return result + QString::fromUtf8(run);
    }
    // Reads the value at i_, named `key` in `parent` (whose key offset is `at`, when given).
    void value(const QString& key, Value parent, std::optional<qsizetype> keyAt = std::nullopt) {
        skipBlanks();
        const Value self = Value(places_.size());
        places_.push_back({keyAt.value_or(i_), i_, i_});
        if (parent != kNone) {
            children_.insert({parent, key}, self);
        }
        if (i_ >= text_.size()) {
            return;
        }
        if (text_[i_] == '{') {
            ++i_;
            skipBlanks();
            while (i_ < text_.size() && text_[i_] != '}') {
                const qsizetype keyOffset = i_;
                const QString member = string();
                skipBlanks();
                ++i_;  // ':'
                value(member, self, keyOffset);
                skipBlanks();
                if (i_ < text_.size() && text_[i_] == ',') {
                    ++i_;
                    skipBlanks();
                }
            }
            ++i_;
        } else if (text_[i_] == '[') {
            ++i_;
            skipBlanks();
            for (qsizetype index = 0; i_ < text_.size() && text_[i_] != ']'; ++index) {
                value(QString::number(index), self);
                skipBlanks();
                if (i_ < text_.size() && text_[i_] == ',') {
                    ++i_;
                    skipBlanks();
                }
            }
            ++i_;
        } else if (text_[i_] == '"') {
            string();
        } else {
            while (i_ < text_.size() && !QByteArrayView(",]} \t\r\n").contains(text_[i_])) {
                ++i_;
            }
        }
        places_[size_t(self)].end = std::min(i_, text_.size());
    }

    const QByteArray& text_;
    qsizetype i_ = 0;
    std::vector<Place> places_;
    QHash<std::pair<Value, QString>, Value> children_;
};

struct NniType {
    QString name;
    DomainKind kind;
    QStringList arguments;
    bool integers;
};

const std::vector<NniType>& nniTypes() {
    static const std::vector<NniType> types = {
        {"choice", DomainKind::Choice, {}, false},
        {"randint", DomainKind::RandInt, {"lower", "upper"}, true},
        {"uniform", DomainKind::Uniform, {"low", "high"}, false},
        {"quniform", DomainKind::QUniform, {"low", "high", "q"}, false},
        {"loguniform", DomainKind::LogUniform, {"low", "high"}, false},
        {"qloguniform", DomainKind::QLogUniform, {"low", "high", "q"}, false},
        {"normal", DomainKind::Normal, {"mu", "sigma"}, false},
        {"qnormal", DomainKind::QNormal, {"mu", "sigma", "q"}, false},
    };
    return types;
}

bool isSpec(const QJsonValue& value) {
    return value.isObject() && value.toObject().contains(QLatin1String("_type"));
}

bool holdsSpec(const QJsonObject& object) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (isSpec(it.value())) {
            return true;
        }
    }
    return false;
}

QString describeJson(const QJsonValue& value) {
    switch (value.type()) {
        case QJsonValue::Array:
            return QStringLiteral("a list");
        case QJsonValue::Object:
            return QStringLiteral("an object");
        case QJsonValue::String:
            return QStringLiteral("\"%1\"").arg(value.toString());
        case QJsonValue::Double:
            return QString::number(value.toDouble(), 'g', 17);
        case QJsonValue::Bool:
            return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        default:
            return QStringLiteral("null");
    }
}

class NniReader {
  public:
    NniReader(const TextPositions& positions, const QByteArray& text, ProblemList* problems)
        : positions_(positions), places_(text), problems_(problems) {}

    void readTopLevel(const QJsonObject& object, SearchSpace* out) {
        for (const QString& key : keysInWrittenOrder(object, kDocument)) {
            Parameter parameter;
            if (readParameter(key, object.value(key), places_.child(kDocument, key), key,
                              &parameter)) {
                out->parameters.push_back(std::move(parameter));
            }
        }
    }

    bool ok() const { return ok_; }

  private:
    static constexpr JsonPlaces::Value kDocument = 0;

    // QJsonObject sorts its keys; parameters keep the order the user wrote them in.
    QStringList keysInWrittenOrder(const QJsonObject& object, JsonPlaces::Value place) const {
        QStringList keys = object.keys();
        std::stable_sort(keys.begin(), keys.end(), [&](const QString& a, const QString& b) {
            return places_.offset(places_.child(place, a)).value_or(0) <
                   places_.offset(places_.child(place, b)).value_or(0);
        });
        return keys;
    }

    // The numbers written as floats ("2.0") inside the value at `place`, scanned in its own
    // bytes: one scan of the whole file filtered per option took time quadratic in the options.
    // An option of a nested group records its floats again for each group around it, so what is
    // kept is counted against the bound on paths too.
    FloatPaths writtenFloats(JsonPlaces::Value place) {
        FloatPaths floats = floatPathsInJson(places_.text(place));
        for (const QString& path : floats) {
            keptPathBytes_ += path.size();
        }
        if (keptPathBytes_ > InputLimits().maxPathBytes) {
            if (!pathsRefused_) {
                pathsRefused_ = true;
                fail(place, QString(), inputPathsProblem());
            }
            return {};
        }
        return floats;
    }

    SourceLocation at(JsonPlaces::Value place) const {
        const auto offset = places_.offset(place);
        return offset ? positions_.atOffset(*offset) : positions_.at(0, 0);
    }
    void fail(JsonPlaces::Value place, const QString& key, const QString& message) {
        problems_->add(at(place), key, message);
        ok_ = false;
    }

    bool readParameter(const QString& name, const QJsonValue& value, JsonPlaces::Value place,
                       const QString& dotted, Parameter* out) {
        out->name = name;
        out->location = at(place);
        const QString typeShape =
            QStringLiteral("expected {\"_type\": ..., \"_value\": [...]}, got %1");
        if (!value.isObject()) {
            fail(place, dotted, typeShape.arg(describeJson(value)));
            return false;
        }
        const QJsonObject spec = value.toObject();
        bool sound = true;
        for (auto it = spec.begin(); it != spec.end(); ++it) {
            if (it.key() != QLatin1String("_type") && it.key() != QLatin1String("_value")) {
                fail(places_.child(place, it.key()), dotted,
                     QStringLiteral("unknown key '%1' (NNI parameters have _type and _value)")
                         .arg(it.key()));
                sound = false;
            }
        }
        if (!spec.value(QLatin1String("_type")).isString()) {
            fail(place, dotted, typeShape.arg(describeJson(value)));
            return false;
        }
        const QString type = spec.value(QLatin1String("_type")).toString();
        const NniType* syntax = nullptr;
        QStringList known;
        for (const NniType& candidate : nniTypes()) {
            known << candidate.name;
            if (candidate.name == type) {
                syntax = &candidate;
            }
        }
        const JsonPlaces::Value typePlace = places_.child(place, QStringLiteral("_type"));
        if (type == QLatin1String("lognormal") || type == QLatin1String("qlognormal")) {
            fail(typePlace, dotted,
                 QStringLiteral("_type '%1' is not supported (there is no log-normal domain; "
                                "loguniform is the closest)")
                     .arg(type));
            return false;
        }
        if (!syntax) {
            fail(typePlace, dotted,
                 QStringLiteral("unknown _type '%1'%2")
                     .arg(type, didYouMean(type, known).isEmpty()
                                    ? QStringLiteral(" (known: %1)").arg(known.join(", "))
                                    : didYouMean(type, known)));
            return false;
        }
        const JsonPlaces::Value valuePlace = places_.child(place, QStringLiteral("_value"));
        const QJsonValue arguments = spec.value(QLatin1String("_value"));
        const QString shape =
            syntax->arguments.isEmpty()
                ? QStringLiteral("a list of values")
                : QStringLiteral("[%1]").arg(syntax->arguments.join(QStringLiteral(", ")));
        if (!arguments.isArray()) {
            fail(spec.contains(QLatin1String("_value")) ? valuePlace : place, dotted,
                 QStringLiteral("%1 takes _value: %2, got %3")
                     .arg(type, shape,
                          spec.contains(QLatin1String("_value")) ? describeJson(arguments)
                                                                 : QStringLiteral("nothing")));
            return false;
        }
        out->kind = Parameter::Kind::Sampled;
        out->domain.kind = syntax->kind;
        const QJsonArray list = arguments.toArray();
        if (syntax->kind == DomainKind::Choice) {
            return readOptions(list, valuePlace, dotted, &out->domain) && sound;
        }
        if (list.size() != syntax->arguments.size()) {
            fail(valuePlace, dotted,
                 QStringLiteral("%1 takes %2, got %3")
                     .arg(type, shape, counted(list.size(), "value")));
            return false;
        }
        for (qsizetype i = 0; i < list.size(); ++i) {
            const double number = list[i].toDouble();
            if (!list[i].isDouble() || (syntax->integers && number != std::floor(number))) {
                fail(valuePlace, dotted,
                     QStringLiteral("expected %1, got %2")
                         .arg(syntax->integers ? QStringLiteral("an integer")
                                               : QStringLiteral("a number"),
                              describeJson(list[i])));
                sound = false;
                continue;
            }
            const QString& argument = syntax->arguments[i];
            if (argument == QLatin1String("low") || argument == QLatin1String("lower")) {
                out->domain.low = number;
            } else if (argument == QLatin1String("high") || argument == QLatin1String("upper")) {
                out->domain.high = number;
            } else if (argument == QLatin1String("q")) {
                out->domain.q = number;
            } else if (argument == QLatin1String("mu")) {
                out->domain.mu = number;
            } else {
                out->domain.sigma = number;
            }
        }
        return sound;
    }

    // An option that is an object holding specs is a nested group (NNI's nested choice);
    // its `_name` and other plain members stay as constants of the group.
    bool readOptions(const QJsonArray& list, JsonPlaces::Value valuePlace, const QString& dotted,
                     Domain* out) {
        bool sound = true;
        for (qsizetype i = 0; i < list.size(); ++i) {
            DomainOption option;
            option.value = list[i];
            const JsonPlaces::Value optionPlace = places_.child(valuePlace, i);
            option.writtenFloats = writtenFloats(optionPlace);
            const QJsonObject object = list[i].toObject();
            if (list[i].isObject() && holdsSpec(object)) {
                option.group = std::make_shared<SearchSpace>();
                for (const QString& key : keysInWrittenOrder(object, optionPlace)) {
                    Parameter member;
                    const JsonPlaces::Value memberPlace = places_.child(optionPlace, key);
                    member.name = key;
                    member.location = at(memberPlace);
                    if (isSpec(object.value(key))) {
                        if (!readParameter(key, object.value(key), memberPlace,
                                           dotted + QLatin1Char('.') + key, &member)) {
                            sound = false;
                            continue;
                        }
                    } else {
                        member.kind = Parameter::Kind::Constant;
                        member.constant = object.value(key);
                        member.writtenFloats = writtenFloats(memberPlace);
                    }
                    option.group->parameters.push_back(std::move(member));
                }
            }
            out->options.push_back(std::move(option));
        }
        return sound;
    }

    const TextPositions& positions_;
    JsonPlaces places_;
    ProblemList* problems_;
    bool ok_ = true;
    std::int64_t keptPathBytes_ = 0;
    bool pathsRefused_ = false;
};

}  // namespace

bool readNniSearchSpace(const QString& displayPath, const QString& filePath, ProblemList* problems,
                        SearchSpace* out) {
    // Refused by its size before a byte is read: a 200 MB file was read and parsed whole.
    QByteArray text;
    if (const Status read = readInputFileBytes(filePath, &text); !read) {
        problems->add({displayPath}, QString(), read.message());
        return false;
    }
    return readNniSearchSpaceText(displayPath, text, problems, out);
}

bool readNniSearchSpaceText(const QString& displayPath, const QByteArray& text,
                            ProblemList* problems, SearchSpace* out) {
    const TextPositions positions(displayPath, text);
    if (!checkJsonText(positions, text, problems)) {
        return false;
    }
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError) {
        problems->add(positions.atOffset(error.offset), QString(),
                      QStringLiteral("invalid JSON: %1").arg(error.errorString()));
        return false;
    }
    if (!document.isObject()) {
        problems->add(positions.at(0, 0), QString(),
                      QStringLiteral("expected a JSON object of parameters, e.g. "
                                     "{\"lr\": {\"_type\": \"uniform\", \"_value\": [0, 1]}}"));
        return false;
    }
    NniReader reader(positions, text, problems);
    SearchSpace space;
    reader.readTopLevel(document.object(), &space);
    if (!checkSearchSpace(space, QString(), reader.ok(), {displayPath}, problems)) {
        return false;
    }
    *out = std::move(space);
    return true;
}

Status loadNniSearchSpace(const QString& jsonPath, SearchSpace* out) {
    ProblemList problems;
    SearchSpace space;
    if (!readNniSearchSpace(jsonPath, jsonPath, &problems, &space)) {
        return Status::invalid(problems.text());
    }
    *out = std::move(space);
    return Status::ok();
}

}  // namespace tunedeck
