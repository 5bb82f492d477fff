// The search-space table under the experiment form: the parameters with a domain picker that
// shows each domain's fields, buttons to add and remove parameters, and the grid size below
// (the grid parameters' values multiplied, times num_samples, as the engine counts them). Each
// edit is turned into text edits of the YAML and reported; the table shows the text again once
// it has taken them. Thread-safety: GUI thread only.
#pragma once

#include <QWidget>
#include <memory>

#include "editors/search_space_rows.h"

class QLabel;
class QPushButton;
class QTableView;

namespace tunedeck::app {

class SearchSpaceModel;

class SearchSpaceTable : public QWidget {
    Q_OBJECT
  public:
    explicit SearchSpaceTable(QWidget* parent = nullptr);

    // Shows the parameters of `yaml` (kept to compute later edits against) and the grid size.
    void showText(std::shared_ptr<const YamlText> yaml, int numSamples);
    QTableView* view() const { return view_; }
    SearchSpaceModel* model() const { return model_; }
    QString gridText() const;

  signals:
    void editsRequested(const QList<tunedeck::app::TextEdit>& edits);

  private:
    void onEdit(int row, int column, const QVariant& value);
    void request(const QList<TextEdit>& edits);

    std::shared_ptr<const YamlText> yaml_;
    SearchSpaceModel* model_;
    QTableView* view_;
    QLabel* note_;
    QLabel* grid_;
    QPushButton* add_;
    QPushButton* remove_;
};

}  // namespace tunedeck::app
