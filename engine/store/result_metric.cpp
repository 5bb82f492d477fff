#include "store/result_metric.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QStringList>
#include <charconv>

namespace tunedeck::store {

namespace {

// A reader of one JSON text that skips what it does not need. Every method returns false on
// text it does not follow (damaged, or an escaped key), and the caller falls back to a parser.
class JsonScan {
  public:
    explicit JsonScan(std::string_view text) : s_(text) {}

    // At an object: moves to the value of its member `key`; false when it has none.
    bool enter(std::string_view key, bool* malformed) {
        space();
        if (!at('{')) {
            return fail(malformed);
        }
        ++i_;
        while (true) {
            space();
            if (at('}')) {
                return false;
            }
            std::string_view name;
            bool escaped = false;
            if (!string(&name, &escaped)) {
                return fail(malformed);
            }
            space();
            if (!at(':')) {
                return fail(malformed);
            }
            ++i_;
            space();
            if (escaped) {
                return fail(malformed);  // "\u006c" may spell the key: the parser decides
            }
            if (name == key) {
                return true;
            }
            if (!skipValue()) {
                return fail(malformed);
            }
            space();
            if (at(',')) {
                ++i_;
            } else if (!at('}')) {
                return fail(malformed);
            }
        }
    }

    bool atObject() {
        space();
        return at('{');
    }

    // The number here, or kNoMetric (a string, null, an object...).
    double number() const {
        double value = kNoMetric;
        const char* begin = s_.data() + i_;
        const char* end = s_.data() + s_.size();
        if (begin == end || !(*begin == '-' || (*begin >= '0' && *begin <= '9'))) {
            return kNoMetric;  // from_chars would also read "inf" and "nan", JSON has neither
        }
        const auto [stop, code] = std::from_chars(begin, end, value);
        return code == std::errc() && stop != begin ? value : kNoMetric;
    }

  private:
    bool at(char c) const { return i_ < s_.size() && s_[i_] == c; }
    bool fail(bool* malformed) {
        *malformed = true;
        return false;
    }
    void space() {
        while (i_ < s_.size() &&
               (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) {
            ++i_;
        }
    }
    // At a '"': the raw text up to the closing quote, which it moves past.
    bool string(std::string_view* raw, bool* escaped) {
        if (!at('"')) {
            return false;
        }
        const std::size_t start = ++i_;
        while (i_ < s_.size() && s_[i_] != '"') {
            if (s_[i_] == '\\') {
                *escaped = true;
                ++i_;
            }
            ++i_;
        }
        if (i_ >= s_.size()) {
            return false;
        }
        *raw = s_.substr(start, i_ - start);
        ++i_;
        return true;
    }
    bool skipValue() {
        if (at('"')) {
            std::string_view ignored;
            bool escaped = false;
            return string(&ignored, &escaped);
        }
        if (at('{') || at('[')) {
            int depth = 0;
            while (i_ < s_.size()) {
                const char c = s_[i_];
                if (c == '"') {
                    std::string_view ignored;
                    bool escaped = false;
                    if (!string(&ignored, &escaped)) {
                        return false;
                    }
                    continue;
                }
                ++i_;
                if (c == '{' || c == '[') {
                    ++depth;
                } else if ((c == '}' || c == ']') && --depth == 0) {
                    return true;
                }
            }
            return false;
        }
        const std::size_t start = i_;  // a number, true, false or null
        while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ']' && s_[i_] != ' ' &&
               s_[i_] != '\n' && s_[i_] != '\t' && s_[i_] != '\r') {
            ++i_;
        }
        return i_ > start;
    }

    std::string_view s_;
    std::size_t i_ = 0;
};

// metricInResult's reading, for the texts the scanner does not follow.
double metricByParser(std::string_view json, const QString& metric) {
    return metricInResult(
        QJsonDocument::fromJson(QByteArray(json.data(), qsizetype(json.size()))).object(), metric);
}

}  // namespace

double metricInResult(const QJsonObject& result, const QString& metric) {
    QJsonValue value = result.value(metric);
    if (value.isUndefined() && metric.contains('/')) {
        QJsonObject level = result;
        const QStringList parts = metric.split('/');
        for (int i = 0; i < parts.size(); ++i) {
            value = level.value(parts[i]);
            if (i + 1 < parts.size()) {
                level = value.toObject();
            }
        }
    }
    return value.isDouble() ? value.toDouble() : kNoMetric;
}

ResultMetric::ResultMetric(const QString& metric) : key_(metric.toStdString()), metric_(metric) {
    if (metric.contains('/')) {
        for (const QString& part : metric.split('/')) {
            path_.push_back(part.toStdString());
        }
    }
}

double ResultMetric::in(std::string_view json) const {
    bool malformed = false;
    {
        JsonScan scan(json);
        if (scan.enter(key_, &malformed)) {
            return scan.number();
        }
    }
    if (!malformed && !path_.empty()) {
        JsonScan scan(json);
        for (std::size_t i = 0; i < path_.size(); ++i) {
            if (i > 0 && !scan.atObject()) {
                return kNoMetric;
            }
            if (!scan.enter(path_[i], &malformed)) {
                break;
            }
            if (i + 1 == path_.size()) {
                return scan.number();
            }
        }
    }
    return malformed ? metricByParser(json, metric_) : kNoMetric;
}

}  // namespace tunedeck::store
