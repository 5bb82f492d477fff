// The part of the cluster form for elastic clusters (provider slurm or command): the node types
// as a table (name, CPUs, GPUs, min and max workers, node_config), the autoscaler's keys
// (upscaling_speed, idle_timeout_minutes), Slurm's worker_path, and the command provider's
// create, terminate, list and connect commands. Like ClusterForm it holds no values of its own:
// it shows the text and asks for text edits of what changed. Thread-safety: GUI thread only.
#pragma once

#include <QGroupBox>
#include <QMap>
#include <functional>
#include <optional>

#include "editors/cluster_fields.h"
#include "editors/cluster_node_types.h"

class QLineEdit;
class QPlainTextEdit;
class QTableWidget;
class QWidget;

namespace tunedeck::app {

class ClusterAutoscalingBox : public QGroupBox {
    Q_OBJECT
  public:
    // `request` sends an edit; nullopt means the text cannot take it, and the form shows the text
    // again (the widget goes back to what it says).
    using Request = std::function<void(const std::optional<TextEdit>&)>;
    explicit ClusterAutoscalingBox(Request request, QWidget* parent = nullptr);

    // Shows what `yaml` says (null: keeps what it showed) for the provider of `fields`.
    void showText(const YamlText* yaml, const ClusterFields& fields);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    QWidget* typesPart();
    QLineEdit* lineEdit(ClusterField field, const char* objectName, const QString& placeholder);
    QPlainTextEdit* commandEdit(ClusterField field, const char* objectName);
    void onTypeChanged(int row);
    void commitCommand(QPlainTextEdit* edit);

    Request request_;
    const YamlText* yaml_ = nullptr;
    ClusterFields fields_;
    QList<NodeTypeRow> types_;
    QTableWidget* table_;
    QMap<ClusterField, QLineEdit*> lines_;
    QMap<ClusterField, QPlainTextEdit*> commands_;
    QWidget* slurmOnly_;
    QWidget* commandOnly_;
};

}  // namespace tunedeck::app
