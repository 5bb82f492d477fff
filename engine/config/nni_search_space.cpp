#include "config/nni_search_space.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <memory>

#include "config/experiment_loader.h"
#include "config/search_space_yaml.h"
#include "core/counted.h"

namespace tunedeck {

namespace {

// QJsonDocument keeps no positions, so a small scanner records the byte offset of every
// object key by its path (keys and array indices joined with '\x1f'). It runs only on text
// QJsonDocument already accepted, so it need not diagnose anything.
class JsonKeyOffsets {
  public:
    explicit JsonKeyOffsets(const QByteArray& text) : text_(text) { value(QString()); }
    std::optional<qsizetype> find(const QString& path) const {
        const auto it = offsets_.find(path);
        return it == offsets_.end() ? std::nullopt : std::optional(*it);
    }
    static QString join(const QString& path, const QString& child) {
        return path.isEmpty() ? child : path + QChar(0x1f) + child;
    }

  private:
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
    void value(const QString& path) {
        skipBlanks();
        if (i_ >= text_.size()) {
            return;
        }
        if (text_[i_] == '{') {
            ++i_;
            skipBlanks();
            while (i_ < text_.size() && text_[i_] != '}') {
                const qsizetype keyOffset = i_;
                const QString key = join(path, string());
                offsets_.insert(key, keyOffset);
                skipBlanks();
                ++i_;  // ':'
                value(key);
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
            for (int index = 0; i_ < text_.size() && text_[i_] != ']'; ++index) {
                value(join(path, QString::number(index)));
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
    }

    const QByteArray& text_;
    qsizetype i_ = 0;
    QHash<QString, qsizetype> offsets_;
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
    NniReader(const QString& displayPath, const QByteArray& text, ProblemList* problems)
        : positions_(displayPath, text),
          offsets_(text),
          floats_(floatPathsInJson(text)),
          problems_(problems) {}

    void readTopLevel(const QJsonObject& object, SearchSpace* out) {
        for (const QString& key : keysInWrittenOrder(object, QString())) {
            Parameter parameter;
            if (readParameter(key, object.value(key), key, key, &parameter)) {
                out->parameters.push_back(std::move(parameter));
            }
        }
    }

    bool ok() const { return ok_; }

  private:
    // QJsonObject sorts its keys; parameters keep the order the user wrote them in.
    QStringList keysInWrittenOrder(const QJsonObject& object, const QString& jsonPath) const {
        QStringList keys = object.keys();
        std::stable_sort(keys.begin(), keys.end(), [&](const QString& a, const QString& b) {
            return offsets_.find(JsonKeyOffsets::join(jsonPath, a)).value_or(0) <
                   offsets_.find(JsonKeyOffsets::join(jsonPath, b)).value_or(0);
        });
        return keys;
    }

    // The numbers written as floats ("2.0") inside the value at `jsonPath`.
    FloatPaths writtenFloats(QString jsonPath) const {
        return floatPathsBelow(floats_, jsonPath.replace(QChar(0x1f), QLatin1Char('.')));
    }

    SourceLocation at(const QString& jsonPath) const {
        const auto offset = offsets_.find(jsonPath);
        return offset ? positions_.atOffset(*offset) : positions_.at(0, 0);
    }
    void fail(const QString& jsonPath, const QString& key, const QString& message) {
        problems_->add(at(jsonPath), key, message);
        ok_ = false;
    }

    bool readParameter(const QString& name, const QJsonValue& value, const QString& jsonPath,
                       const QString& dotted, Parameter* out) {
        out->name = name;
        out->location = at(jsonPath);
        const QString typeShape =
            QStringLiteral("expected {\"_type\": ..., \"_value\": [...]}, got %1");
        if (!value.isObject()) {
            fail(jsonPath, dotted, typeShape.arg(describeJson(value)));
            return false;
        }
        const QJsonObject spec = value.toObject();
        bool sound = true;
        for (auto it = spec.begin(); it != spec.end(); ++it) {
            if (it.key() != QLatin1String("_type") && it.key() != QLatin1String("_value")) {
                fail(JsonKeyOffsets::join(jsonPath, it.key()), dotted,
                     QStringLiteral("unknown key '%1' (NNI parameters have _type and _value)")
                         .arg(it.key()));
                sound = false;
            }
        }
        if (!spec.value(QLatin1String("_type")).isString()) {
            fail(jsonPath, dotted, typeShape.arg(describeJson(value)));
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
        const QString typePath = JsonKeyOffsets::join(jsonPath, QStringLiteral("_type"));
        if (type == QLatin1String("lognormal") || type == QLatin1String("qlognormal")) {
            fail(typePath, dotted,
                 QStringLiteral("_type '%1' is not supported (there is no log-normal domain; "
                                "loguniform is the closest)")
                     .arg(type));
            return false;
        }
        if (!syntax) {
            fail(typePath, dotted,
                 QStringLiteral("unknown _type '%1'%2")
                     .arg(type, didYouMean(type, known).isEmpty()
                                    ? QStringLiteral(" (known: %1)").arg(known.join(", "))
                                    : didYouMean(type, known)));
            return false;
        }
        const QString valuePath = JsonKeyOffsets::join(jsonPath, QStringLiteral("_value"));
        const QJsonValue arguments = spec.value(QLatin1String("_value"));
        const QString shape =
            syntax->arguments.isEmpty()
                ? QStringLiteral("a list of values")
                : QStringLiteral("[%1]").arg(syntax->arguments.join(QStringLiteral(", ")));
        if (!arguments.isArray()) {
            fail(spec.contains(QLatin1String("_value")) ? valuePath : jsonPath, dotted,
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
            return readOptions(list, valuePath, dotted, &out->domain) && sound;
        }
        if (list.size() != syntax->arguments.size()) {
            fail(valuePath, dotted,
                 QStringLiteral("%1 takes %2, got %3")
                     .arg(type, shape, counted(list.size(), "value")));
            return false;
        }
        for (qsizetype i = 0; i < list.size(); ++i) {
            const double number = list[i].toDouble();
            if (!list[i].isDouble() || (syntax->integers && number != std::floor(number))) {
                fail(valuePath, dotted,
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
    bool readOptions(const QJsonArray& list, const QString& valuePath, const QString& dotted,
                     Domain* out) {
        bool sound = true;
        for (qsizetype i = 0; i < list.size(); ++i) {
            DomainOption option;
            option.value = list[i];
            option.writtenFloats =
                writtenFloats(JsonKeyOffsets::join(valuePath, QString::number(i)));
            const QJsonObject object = list[i].toObject();
            if (list[i].isObject() && holdsSpec(object)) {
                option.group = std::make_shared<SearchSpace>();
                const QString optionPath = JsonKeyOffsets::join(valuePath, QString::number(i));
                for (const QString& key : keysInWrittenOrder(object, optionPath)) {
                    Parameter member;
                    const QString memberPath = JsonKeyOffsets::join(optionPath, key);
                    member.name = key;
                    member.location = at(memberPath);
                    if (isSpec(object.value(key))) {
                        if (!readParameter(key, object.value(key), memberPath,
                                           dotted + QLatin1Char('.') + key, &member)) {
                            sound = false;
                            continue;
                        }
                    } else {
                        member.kind = Parameter::Kind::Constant;
                        member.constant = object.value(key);
                        member.writtenFloats = writtenFloats(memberPath);
                    }
                    option.group->parameters.push_back(std::move(member));
                }
            }
            out->options.push_back(std::move(option));
        }
        return sound;
    }

    TextPositions positions_;
    JsonKeyOffsets offsets_;
    FloatPaths floats_;
    ProblemList* problems_;
    bool ok_ = true;
};

}  // namespace

bool readNniSearchSpace(const QString& displayPath, const QString& filePath, ProblemList* problems,
                        SearchSpace* out) {
    QFile file(filePath);
    if (!file.open(QIODevice::ReadOnly)) {
        problems->add({displayPath}, QString(),
                      QStringLiteral("cannot read: %1").arg(file.errorString()));
        return false;
    }
    return readNniSearchSpaceText(displayPath, file.readAll(), problems, out);
}

bool readNniSearchSpaceText(const QString& displayPath, const QByteArray& text,
                            ProblemList* problems, SearchSpace* out) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError) {
        problems->add(TextPositions(displayPath, text).atOffset(error.offset), QString(),
                      QStringLiteral("invalid JSON: %1").arg(error.errorString()));
        return false;
    }
    if (!document.isObject()) {
        problems->add(TextPositions(displayPath, text).at(0, 0), QString(),
                      QStringLiteral("expected a JSON object of parameters, e.g. "
                                     "{\"lr\": {\"_type\": \"uniform\", \"_value\": [0, 1]}}"));
        return false;
    }
    NniReader reader(displayPath, text, problems);
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
