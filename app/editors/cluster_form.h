// The cluster form: the keys of a cluster file in widgets that fit them (the nodes and the file
// mounts as tables, the command lists as editable lists, pickers for the provider and the
// storage; for slurm and command providers the node types and autoscaling keys instead of the
// nodes and login). It shows what the YAML text says and turns each edit into text edits of just
// what changed; it never holds values of its own, so the text stays the one place changes go
// through. Thread-safety: GUI thread only.
#pragma once

#include <QMap>
#include <QWidget>
#include <memory>

#include "editors/cluster_fields.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace tunedeck::app {

class ClusterAutoscalingBox;
class StringListEditor;

class ClusterForm : public QWidget {
    Q_OBJECT
  public:
    explicit ClusterForm(QWidget* parent = nullptr);

    // Shows the text (kept to compute later edits against); while it does not parse, the form
    // keeps the last values it could read, read-only, with `why` above them.
    void showText(std::shared_ptr<const YamlText> yaml, const QString& why = {});
    const ClusterFields& shown() const { return shown_; }

  signals:
    void editsRequested(const QList<tunedeck::app::TextEdit>& edits);

  private:
    QWidget* clusterBox();
    QWidget* authBox();
    QWidget* nodesBox();
    QWidget* commandsBox();
    QWidget* mountsBox();
    QLineEdit* lineEdit(ClusterField field, const char* objectName, const QString& placeholder);
    QWidget* withBrowse(QLineEdit* edit, bool folder);

    // Sends `edit`, or shows the text again when it cannot take the change (the widget goes
    // back to what the text says).
    void request(const std::optional<TextEdit>& edit);
    void showFields(const ClusterFields& fields);
    void showNodes();
    void showMounts();
    void onNodeChanged(int row);
    void onMountChanged(int row);

    std::shared_ptr<const YamlText> yaml_;
    ClusterFields shown_;
    bool editable_ = false;
    QLabel* banner_;
    QMap<ClusterField, QLineEdit*> lines_;
    QComboBox* provider_;
    QComboBox* storage_;
    QTableWidget* nodes_;
    QTableWidget* mounts_;
    QMap<ClusterList, StringListEditor*> lists_;
    QList<QWidget*> sshOnly_;  // what provider local refuses, and elastic ones do not use
    QLineEdit* minWorkers_;
    QLineEdit* maxWorkers_;
    ClusterAutoscalingBox* autoscaling_;  // slurm and command only
};

}  // namespace tunedeck::app
