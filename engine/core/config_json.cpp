#include "core/config_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>

#include "core/float_path_list.h"
#include "core/search_space.h"

namespace tunedeck {

namespace {

// Integers beyond this are not exact in a double; they are written in exponent form.
constexpr double kLargestExactInteger = 9.0e15;

QString childPath(const QString& path, const QString& key) {
    return path.isEmpty() ? key : path + QLatin1Char('.') + key;
}

// `relative` (paths inside a value as written) placed at `path` of the config.
void addRelative(const FloatPaths& relative, const QString& path, FloatPaths* out) {
    for (const QString& inner : relative) {
        out->insert(inner.isEmpty() ? path : childPath(path, inner));
    }
}

bool isFloatDomain(DomainKind kind) {
    return isNumericDomain(kind) && !isIntegerDomain(kind);
}

void collect(const SearchSpace& space, const QJsonObject& object, const QString& prefix,
             FloatPaths* out);

// A value of a choice or grid: the floats of the option it is (its group's, when the option
// is a group of parameters).
void collectOption(const Domain& domain, const QJsonValue& value, const QString& path,
                   FloatPaths* out) {
    for (const DomainOption& option : domain.options) {
        if (option.group) {
            if (value.isObject()) {
                const QJsonObject object = value.toObject();
                bool fits = true;
                for (const Parameter& parameter : option.group->parameters) {
                    fits = fits && (parameter.when || object.contains(parameter.name));
                }
                if (fits) {
                    collect(*option.group, object, path, out);
                    return;
                }
            }
        } else if (option.value == value) {
            addRelative(option.writtenFloats, path, out);
            return;
        }
    }
}

void collect(const SearchSpace& space, const QJsonObject& object, const QString& prefix,
             FloatPaths* out) {
    for (const Parameter& parameter : space.parameters) {
        const QJsonValue value = object.value(parameter.name);
        if (value.isUndefined()) {
            continue;
        }
        const QString path = childPath(prefix, parameter.name);
        switch (parameter.kind) {
            case Parameter::Kind::Constant:
                addRelative(parameter.writtenFloats, path, out);
                break;
            case Parameter::Kind::Group:
                if (parameter.group && value.isObject()) {
                    collect(*parameter.group, value.toObject(), path, out);
                }
                break;
            case Parameter::Kind::Sampled:
                if (isFloatDomain(parameter.domain.kind)) {
                    if (value.isDouble()) {
                        out->insert(path);
                    }
                } else if (!isNumericDomain(parameter.domain.kind)) {
                    collectOption(parameter.domain, value, path, out);
                }
                break;
        }
    }
}

// Records the float numbers of JSON text by path; runs on text QJsonDocument accepted.
class FloatScanner {
  public:
    explicit FloatScanner(const QByteArray& text) : text_(text) { value(QString()); }
    QStringList paths;

  private:
    void skipBlanks() {
        while (i_ < text_.size() && QByteArrayView(" \t\r\n").contains(text_[i_])) {
            ++i_;
        }
    }
    QString string() {
        ++i_;
        QByteArray raw;
        while (i_ < text_.size() && text_[i_] != '"') {
            if (text_[i_] == '\\' && i_ + 1 < text_.size()) {
                raw += text_[i_++];
            }
            raw += text_[i_++];
        }
        ++i_;
        if (!raw.contains('\\')) {
            return QString::fromUtf8(raw);  // nothing to unescape: the parser would say the same
        }
        // Unescaped through the JSON parser itself, so keys match QJsonObject's.
        const QJsonArray decoded = QJsonDocument::fromJson("[\"" + raw + "\"]").array();
        return decoded.isEmpty() ? QString::fromUtf8(raw) : decoded.first().toString();
    }
    void separator() {
        skipBlanks();
        if (i_ < text_.size() && text_[i_] == ',') {
            ++i_;
            skipBlanks();
        }
    }
    void value(const QString& path) {
        skipBlanks();
        if (i_ >= text_.size()) {
            return;
        }
        const char c = text_[i_];
        if (c == '{') {
            ++i_;
            skipBlanks();
            while (i_ < text_.size() && text_[i_] != '}') {
                const QString key = childPath(path, string());
                skipBlanks();
                ++i_;  // ':'
                value(key);
                separator();
            }
            ++i_;
        } else if (c == '[') {
            ++i_;
            skipBlanks();
            for (int index = 0; i_ < text_.size() && text_[i_] != ']'; ++index) {
                value(childPath(path, QString::number(index)));
                separator();
            }
            ++i_;
        } else if (c == '"') {
            string();
        } else {
            const qsizetype start = i_;
            while (i_ < text_.size() && !QByteArrayView(",]} \t\r\n").contains(text_[i_])) {
                ++i_;
            }
            const QByteArrayView token(text_.constData() + start, i_ - start);
            if ((c == '-' || (c >= '0' && c <= '9')) &&
                (token.contains('.') || token.contains('e') || token.contains('E'))) {
                paths.append(path);
            }
        }
    }

    const QByteArray& text_;
    qsizetype i_ = 0;
};

void appendString(QByteArray& out, const QString& text) {
    out += '"';
    for (const QChar ch : text) {
        const char16_t c = ch.unicode();
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20) {
                    out += "\\u00" + QByteArray::number(c, 16).rightJustified(2, '0');
                } else {
                    out += QString(ch).toUtf8();
                }
        }
    }
    out += '"';
}

void write(QByteArray& out, const QJsonValue& value, const QString& path, const FloatPaths& floats,
           JsonLayout layout, int depth) {
    const bool indented = layout == JsonLayout::Indented;
    const QByteArray inner = indented ? QByteArray((depth + 1) * 4, ' ') : QByteArray();
    const QByteArray outer = indented ? QByteArray(depth * 4, ' ') : QByteArray();
    const QByteArray newline = indented ? QByteArray("\n") : QByteArray();
    switch (value.type()) {
        case QJsonValue::Object: {
            const QJsonObject object = value.toObject();
            out += '{' + newline;
            for (auto it = object.begin(); it != object.end(); ++it) {
                out += inner;
                appendString(out, it.key());
                out += indented ? ": " : ":";
                write(out, it.value(), childPath(path, it.key()), floats, layout, depth + 1);
                out += (std::next(it) == object.end() ? QByteArray() : QByteArray(",")) + newline;
            }
            out += outer + '}';
            break;
        }
        case QJsonValue::Array: {
            const QJsonArray array = value.toArray();
            out += '[' + newline;
            for (qsizetype i = 0; i < array.size(); ++i) {
                out += inner;
                write(out, array.at(i), childPath(path, QString::number(i)), floats, layout,
                      depth + 1);
                out += (i + 1 == array.size() ? QByteArray() : QByteArray(",")) + newline;
            }
            out += outer + ']';
            break;
        }
        case QJsonValue::String:
            appendString(out, value.toString());
            break;
        case QJsonValue::Bool:
            out += value.toBool() ? "true" : "false";
            break;
        case QJsonValue::Double:
            out += std::isfinite(value.toDouble())
                       ? numberText(value.toDouble(), floats.contains(path)).toUtf8()
                       : QByteArray("null");
            break;
        case QJsonValue::Null:
        case QJsonValue::Undefined:
            out += "null";
            break;
    }
}

}  // namespace

FloatPaths floatPathsOf(const SearchSpace& space, const QJsonObject& config) {
    FloatPaths paths;
    collect(space, config, QString(), &paths);
    return paths;
}

FloatPaths floatPathsInJson(const QByteArray& text) {
    const QStringList paths = floatPathListInJson(text);
    return FloatPaths(paths.begin(), paths.end());
}

QStringList floatPathListInJson(const QByteArray& text) {
    return FloatScanner(text).paths;
}

FloatPaths floatPathsBelow(const FloatPaths& paths, const QString& prefix) {
    if (prefix.isEmpty()) {
        return paths;
    }
    FloatPaths below;
    const QString start = prefix + QLatin1Char('.');
    for (const QString& path : paths) {
        if (path == prefix) {
            below.insert(QString());
        } else if (path.startsWith(start)) {
            below.insert(path.mid(start.size()));
        }
    }
    return below;
}

FloatPaths floatPathsUnder(const FloatPaths& paths, const QString& prefix) {
    FloatPaths under;
    addRelative(paths, prefix, &under);
    return under;
}

QByteArray configJsonText(const QJsonValue& value, const FloatPaths& floats, JsonLayout layout) {
    QByteArray out;
    write(out, value, QString(), floats, layout, 0);
    if (layout == JsonLayout::Indented) {
        out += '\n';
    }
    return out;
}

QString numberText(double value, bool isFloat) {
    if (!isFloat && std::isfinite(value) && value == std::floor(value) &&
        std::fabs(value) < kLargestExactInteger) {
        return QString::number(static_cast<qint64>(value));
    }
    QString text = QString::number(value, 'g', QLocale::FloatingPointShortest);
    if (isFloat && std::isfinite(value) && !text.contains(QLatin1Char('.')) &&
        !text.contains(QLatin1Char('e'))) {
        text += QStringLiteral(".0");
    }
    return text;
}

}  // namespace tunedeck
