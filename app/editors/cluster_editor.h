// The cluster editor: a cluster file (Ray's on-prem launcher shape) as a form and as YAML text in
// two tabs showing the same document, checked in-process by the engine's own cluster loader 400 ms
// after the last edit with its problems pinned to their lines; "Test connection" to every node,
// and `up` / `down` run by the engine with their output streamed below. As in the experiment
// editor, the text document is the one gateway for changes: form edits become text edits of just
// what they change, so comments stay as written and one undo stack covers both tabs.
// Thread-safety: GUI thread only.
#pragma once

#include <memory>

#include "editors/yaml_document_editor.h"
#include "editors/yaml_text.h"

class QPushButton;
class QTabWidget;

namespace tunedeck::app {

class ClusterCommandRunner;
class ClusterConnectionCheck;
class ClusterConnectionView;
class ClusterForm;
class ClusterOutputPane;

// A problem the cluster loader reported, as the list below the editor shows it.
struct ClusterProblem {
    int line = 0;  // 1-based; 0 when it names no place in this text
    int column = 0;
    QString message;  // "key: problem"; the whole line, with its place, when not pinned
    bool warning = false;
};

class ClusterEditor : public YamlDocumentEditor {
    Q_OBJECT
  public:
    // `engineBinary` runs `cluster up|down`; empty: tunedeck-engine beside the app.
    explicit ClusterEditor(const QString& engineBinary = {}, QWidget* parent = nullptr);
    ~ClusterEditor() override;

    // A new cluster file for `path` from a starting text; written by the first save().
    void startNew(const QString& path);

    const QList<ClusterProblem>& problems() const { return problems_; }
    ClusterForm* form() const { return form_; }
    ClusterConnectionCheck* connectionCheck() const { return check_; }
    ClusterConnectionView* connectionView() const { return checkView_; }
    ClusterCommandRunner* commandRunner() const { return runner_; }
    ClusterOutputPane* outputPane() const { return output_; }
    QString engineBinary() const { return engineBinary_; }

  public slots:
    // Checks the text now instead of after the delay.
    void validateNow() override;
    // Connects to every node of the text as it is now (saved or not).
    void testConnection();
    // Save first if modified, then `tunedeck-engine cluster up|down FILE`.
    void up();
    void down();

  private:
    void onTextChanged() override;
    void showProblems();
    void runCommand(const QString& verb);
    void updateActions();
    QString sourceFile() const;

    QString engineBinary_;
    std::shared_ptr<const YamlText> yaml_;
    ClusterForm* form_;
    QPushButton* test_;
    QPushButton* up_;
    QPushButton* down_;
    QTabWidget* bottom_;
    ClusterConnectionCheck* check_;
    ClusterConnectionView* checkView_;
    ClusterCommandRunner* runner_;
    ClusterOutputPane* output_;
    QList<ClusterProblem> problems_;
};

// Opens `path` in a cluster editor window of its own, a child of `parent` that closes with it
// (a new file from a starting text when `path` does not exist yet). `engineBinary` as for
// ClusterEditor. Returns the editor, or nullptr (after saying why) when the file cannot be read.
ClusterEditor* openClusterEditor(QWidget* parent, const QString& path,
                                 const QString& engineBinary = {});

}  // namespace tunedeck::app
