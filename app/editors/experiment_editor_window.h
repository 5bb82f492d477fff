// The experiment editor's window: the editor with an Experiment menu (Save, Run, Undo, Redo).
// Run checks the text with the engine first; only a valid text is saved and handed on to be
// started (runRequested), and what the engine answered is shown in the editor, which stays in
// front when the run did not start. Thread-safety: GUI thread only.
#pragma once

#include "editors/editor_window.h"

namespace tunedeck::client {
class EngineClient;
}

namespace tunedeck::app {

class ExperimentEditor;

class ExperimentEditorWindow : public EditorWindow {
    Q_OBJECT
  public:
    // An editor window of its own for the file at `path`; null with `error` set when it cannot
    // be read. Validation goes through `client`.
    static ExperimentEditorWindow* open(const QString& path, client::EngineClient* client,
                                        QWidget* parent, QString* error);

    ExperimentEditor* editor() const { return editor_; }
    // What became of the start runRequested() asked for: an empty `refusal` when it started.
    void showRunOutcome(const QString& refusal);

  signals:
    // The saved, valid file at `path` is to be started.
    void runRequested(const QString& path);

  private:
    ExperimentEditorWindow(ExperimentEditor* editor, QWidget* parent);

    ExperimentEditor* editor_;
};

}  // namespace tunedeck::app
