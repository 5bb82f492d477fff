// The start page: experiment templates (the examples shipped with Tunedeck, each described by
// the first paragraph of its file's leading comment; the cluster files among them open in the
// cluster editor) and the experiments the user ran, edited or opened recently. A
// template is copied into a folder of the user's before it is edited, since the shipped ones are
// read-only once installed. GUI thread only; the functions that read or copy files are plain.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

class QListWidget;

namespace tunedeck::app {

struct ExperimentTemplate {
    QString path;          // the template's experiment file
    QString title;         // "asha", or "branin / tpe" for a folder holding several
    QString description;   // the first paragraph of its leading comment
    QString comment;       // the whole leading comment, without the "Run it with" line
    bool cluster = false;  // a cluster file: it opens in the cluster editor
};

// Whether the YAML file at `path` is a cluster file (a top-level `cluster_name`), not an
// experiment.
bool isClusterFile(const QString& path);

// Where the examples are: $TUNEDECK_EXAMPLES_DIR, the installed share/tunedeck/examples next to
// the app, or the source tree the app was built from. Empty when none exists.
QString examplesFolder();
QList<ExperimentTemplate> listTemplates(const QString& examplesFolder);

// Copies the template's folder to `destinationParent/<its folder name>` (a number appended
// when taken), and also each sibling folder its files refer to as `../NAME/`, so relative
// commands keep working. Returns the copied experiment file, or empty with `error` set.
QString copyTemplate(const ExperimentTemplate& chosen, const QString& destinationParent,
                     QString* error);

// Recent experiment files (run or edited) and folders (opened), newest first, at most 10 each.
enum class RecentKind { File, Folder };
void rememberRecent(RecentKind kind, const QString& path);
QStringList recentItems(RecentKind kind);

class StartPage : public QWidget {
    Q_OBJECT
  public:
    explicit StartPage(QWidget* parent = nullptr);

    // Re-reads the recent lists (after the window opened or ran something).
    void refresh();

  signals:
    void editFile(const QString& path);         // a template's copy, or a recent file
    void editClusterFile(const QString& path);  // the same, when it is a cluster file
    void openFolder(const QString& folder);
    void openFileRequested();
    void openFolderRequested();
    void attachRequested();

  private:
    void useTemplate();
    void edit(const QString& path);

    QList<ExperimentTemplate> templates_;
    QListWidget* templateList_ = nullptr;
    QListWidget* recentList_ = nullptr;
};

}  // namespace tunedeck::app
