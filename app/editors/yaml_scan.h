// Where a YAML node that starts at a known byte ends, found by scanning its text: the part of
// the editors' YAML patching that yaml-cpp cannot answer (its Marks give starts only). It works
// on text yaml-cpp has already accepted, so it only tells valid tokens apart.
// Thread-safety: a value; const methods may be called from any thread.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace tunedeck::app {

class YamlScan {
  public:
    YamlScan() = default;
    explicit YamlScan(const QString& text);

    const QByteArray& utf8() const { return utf8_; }
    // The QString index of a UTF-8 byte offset.
    qsizetype charPos(int bytePos) const;

    // The end of the scalar starting at `start`: its closing quote, the end of a block scalar
    // (| or >), or a plain scalar's last character before a comment, a ': ', a line end or, in
    // flow, a flow indicator. Plain and block scalars continue on lines indented more than
    // `parentIndent` (the column of the block collection holding them; INT_MAX for keys).
    int scalarEnd(int start, bool inFlow, int parentIndent) const;
    // Past the bracket closing the flow collection that opens at `start`.
    int flowEnd(int start) const;
    // The end of a block sequence whose dashes sit at `column`, given where its last non-empty
    // item ends: past any empty items (a lone `-`) that follow.
    int blockSequenceEnd(int itemsEnd, int column) const;

    int lineStart(int pos) const;
    int lineEnd(int pos) const;  // the '\n' ending pos's line, or the text's size
    int skipBlanks(int pos) const;

  private:
    int indentAt(int lineStartPos) const;
    int plainEnd(int start, bool inFlow, int parentIndent) const;
    int quotedEnd(int start) const;
    int blockScalarEnd(int start, int parentIndent) const;

    QByteArray utf8_;
    QList<qsizetype> charPos_;  // empty when the text is ASCII: bytes and characters agree
};

}  // namespace tunedeck::app
