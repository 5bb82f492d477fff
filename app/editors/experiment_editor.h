// The experiment editor: a form and the YAML text in two tabs that show the same document, a
// search-space table, and live validation by the engine. The text document is the one gateway
// for changes: form and table edits become text edits of only the values they change (comments
// and all else stay as written), so one undo stack covers both tabs. 400 ms after the last edit
// the text goes to the engine's `validate`; its problems are pinned to their lines.
// Thread-safety: GUI thread only.
#pragma once

#include <QPointer>
#include <QTimer>
#include <QWidget>
#include <memory>

#include "client/engine_client.h"
#include "editors/experiment_fields.h"
#include "editors/yaml_text_edit.h"

class QAction;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QTableWidget;
class QTabWidget;

namespace tunedeck::app {

class ExperimentForm;
class SearchSpaceTable;

// A problem `validate` reported, as the list below the editor shows it.
struct ValidationProblem {
    QString file;
    int line = 0;  // 1-based; 0 when it has none
    int column = 0;
    QString message;
    bool warning = false;
    bool pinned = false;  // it is about this file's text, at `line`
};

class ExperimentEditor : public QWidget {
    Q_OBJECT
  public:
    // Validation waits while `client` is null or not connected, and says so.
    explicit ExperimentEditor(client::EngineClient* client, QWidget* parent = nullptr);
    ~ExperimentEditor() override;

    // Reads `path` (relative paths in it start from its folder); false with errorString() set
    // when it cannot be read.
    bool load(const QString& path);
    // Writes the text to path() atomically; false without a path or on a write error.
    bool save();
    bool saveAs(const QString& path);
    QString path() const { return path_; }
    QString errorString() const { return error_; }
    bool isModified() const;

    QString text() const;
    // Replaces the whole text and starts a new undo history.
    void setText(const QString& text);

    const QList<ValidationProblem>& problems() const { return problems_; }
    ExperimentForm* form() const { return form_; }
    SearchSpaceTable* searchSpace() const { return table_; }
    // The sampled configs of the last validation, a row each.
    QTableWidget* samplePreview() const { return preview_; }
    YamlTextEdit* textEdit() const { return textEdit_; }
    QTabWidget* tabs() const { return tabs_; }

    // How long after the last edit the text is validated.
    static constexpr int kValidateDelayMs = 400;

  public slots:
    void undo();
    void redo();
    // Sends the text to `validate` now instead of after the delay.
    void validateNow();
    // Moves the YAML tab's cursor to the problem at `row` of the list.
    void showProblem(int row);

  signals:
    void validated(bool valid, int problems);
    void modificationChanged(bool modified);
    void pathChanged(const QString& path);

  private:
    void applyEdits(const QList<TextEdit>& edits);
    void onTextChanged();
    void onFieldEdited(FormField field, const QVariant& value);
    void onValidated(const QJsonObject& answer, const QString& fileName);
    void showNotConnected();
    bool isThisFile(const QString& file, const QString& sentFileName) const;
    void showProblems();
    void showPreview(const QJsonArray& configs);

    QPointer<client::EngineClient> client_;
    QString path_;
    QString error_;
    std::shared_ptr<const YamlText> yaml_;
    ExperimentFields lastFields_;  // what the form showed when the text last parsed
    QTabWidget* tabs_;
    ExperimentForm* form_;
    SearchSpaceTable* table_;
    QTableWidget* preview_ = nullptr;
    YamlTextEdit* textEdit_;
    QLabel* pathLabel_;
    QLabel* status_;
    QListWidget* problemList_;
    QAction* undo_;
    QAction* redo_;
    QTimer validateTimer_;
    quint64 generation_ = 0;  // answers to older texts are dropped
    bool waitingForEngine_ = false;
    QList<ValidationProblem> problems_;
};

}  // namespace tunedeck::app
