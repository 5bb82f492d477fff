// The experiment editor: a form and the YAML text in two tabs that show the same document, a
// search-space table, and live validation by the engine. The text document is the one gateway
// for changes: form and table edits become text edits of only the values they change (comments
// and all else stay as written), so one undo stack covers both tabs. 400 ms after the last edit
// the text goes to the engine's `validate`; its problems are pinned to their lines.
// Thread-safety: GUI thread only.
#pragma once

#include <QPointer>
#include <memory>

#include "client/engine_client.h"
#include "editors/experiment_fields.h"
#include "editors/yaml_document_editor.h"

class QTableWidget;

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

class ExperimentEditor : public YamlDocumentEditor {
    Q_OBJECT
  public:
    // Validation waits while `client` is null or not connected, and says so.
    explicit ExperimentEditor(client::EngineClient* client, QWidget* parent = nullptr);
    ~ExperimentEditor() override;

    const QList<ValidationProblem>& problems() const { return problems_; }
    ExperimentForm* form() const { return form_; }
    SearchSpaceTable* searchSpace() const { return table_; }
    // The sampled configs of the last validation, a row each.
    QTableWidget* samplePreview() const { return preview_; }

  public slots:
    // Sends the text to `validate` now instead of after the delay.
    void validateNow() override;
    // Run: checks the text with the engine now, and emits readyToRun() when it is valid. When it
    // is not, nothing is saved or started: the problems are listed with their lines, the YAML
    // tab shows the first error, and the status line says the run did not start.
    void checkAndRun();
    // The engine refused to start the run: its message, in the status line above the problems.
    void showRunRefused(const QString& message);

  signals:
    void readyToRun();

  private:
    void onTextChanged() override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    // Applies a form edit, or shows the text's values again when it cannot take it.
    void applyOrRevert(const std::optional<TextEdit>& edit);
    void onFieldEdited(FormField field, const QVariant& value);
    void onValidated(const QJsonObject& answer, const QString& fileName);
    void showNotConnected();
    bool isThisFile(const QString& file, const QString& sentFileName) const;
    void showProblems();
    void showPreview(const QJsonArray& configs);
    // After a validation that Run asked for: go on, or say why not.
    void finishRunCheck(bool valid);

    QPointer<client::EngineClient> client_;
    std::shared_ptr<const YamlText> yaml_;
    ExperimentFields lastFields_;  // what the form showed when the text last parsed
    ExperimentForm* form_;
    SearchSpaceTable* table_;
    QTableWidget* preview_ = nullptr;
    quint64 generation_ = 0;  // answers to older texts are dropped
    bool waitingForEngine_ = false;
    bool runAfterCheck_ = false;  // Run waits for the validation under way
    QList<ValidationProblem> problems_;
};

}  // namespace tunedeck::app
