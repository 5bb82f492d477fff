// A YAML text read once with yaml-cpp, and the edits that change one value in it while every
// other byte (comments, blank lines, the quoting and layout of what was not touched) stays as the
// user wrote it. yaml-cpp says where each node starts (its Mark); where it ends is found by
// scanning the text from there. Values are addressed by key paths: {"trainable", "command"}.
// Thread-safety: a value; one instance is used by one thread at a time.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

namespace tunedeck::app {

// Positions are QString (UTF-16) indices into the text, as QTextDocument counts them.
struct TextSpan {
    qsizetype start = -1;
    qsizetype end = -1;  // exclusive
    bool isValid() const { return start >= 0 && end >= start; }
};

// Replace [start, end) by `text`.
struct TextEdit {
    qsizetype start = 0;
    qsizetype end = 0;
    QString text;
};

// Applies non-overlapping edits whatever their order (each at the positions of the original).
QString applyEdits(QString text, QList<TextEdit> edits);

// `value` as a YAML scalar that reads back as this very string: plain when that is safe, else
// double-quoted. `inFlow`: it goes inside [...] or {...}, where , [ ] { } end a plain scalar.
QString yamlString(const QString& value, bool inFlow = false);
// Whether `text` is how YAML writes a number (`1`, `-2.5`, `1.0e-4`, `.inf`).
bool looksLikeYamlNumber(const QString& text);

class YamlText {
  public:
    enum class Kind { Missing, Null, Scalar, Sequence, Mapping };

    explicit YamlText(QString text = QString());
    ~YamlText();
    YamlText(YamlText&&) noexcept;
    YamlText& operator=(YamlText&&) noexcept;

    const QString& text() const;
    // False when yaml-cpp could not read the text; nothing can be looked up or edited then.
    bool isParsed() const;
    QString parseError() const;
    int parseErrorLine() const;  // 1-based; 0 when parsed

    Kind kind(const QStringList& path) const;
    // The scalar's value (quotes and escapes resolved); empty when it is not a scalar.
    QString scalar(const QStringList& path) const;
    // The keys of a mapping, in the order written.
    QStringList keys(const QStringList& path) const;
    // The scalar values of a sequence's items (non-scalar items are empty).
    QStringList items(const QStringList& path) const;
    bool isFlow(const QStringList& path) const;

    // Where the value at `path` is written (invalid when it is missing or an empty value).
    TextSpan span(const QStringList& path) const;
    // Where the last key of `path` is written.
    TextSpan keySpan(const QStringList& path) const;
    // Where each item of the sequence at `path` is written.
    QList<TextSpan> itemSpans(const QStringList& path) const;
    QString source(TextSpan span) const;

    // The edit that makes `path` hold `yamlValue` (a scalar or a flow collection, as YAML text):
    // the value's own text is replaced when it is written; otherwise the missing keys are inserted
    // into the nearest enclosing mapping, in its style. Nullopt when the path runs through a value
    // that is not a mapping, or the text does not parse.
    std::optional<TextEdit> setValue(const QStringList& path, const QString& yamlValue) const;
    // The edit that removes the key at `path` with its value (and the lines they fill). A mapping
    // left empty is removed with it.
    std::optional<TextEdit> remove(const QStringList& path) const;
    // The edit that puts `yamlValue` (a scalar or a flow collection) before item `index` of the
    // sequence at `path` (at the end when `index` is its size), in the sequence's style: a `- `
    // line at the dashes' column, or `, ` in [...]. Nullopt when `path` holds no sequence.
    std::optional<TextEdit> insertItem(const QStringList& path, int index,
                                       const QString& yamlValue) const;
    // The edit that removes item `index` of the sequence at `path`: its `- ` line(s), or the item
    // and one comma in [...]. The last item of a block sequence leaves `[]`, not a null.
    std::optional<TextEdit> removeItem(const QStringList& path, int index) const;

  private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

}  // namespace tunedeck::app
