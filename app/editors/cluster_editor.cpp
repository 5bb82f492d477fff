#include "editors/cluster_editor.h"

#include <QAction>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "config/cluster_loader.h"
#include "editors/cluster_command_runner.h"
#include "editors/cluster_connection_check.h"
#include "editors/cluster_form.h"
#include "editors/cluster_summary.h"
#include "editors/editor_window.h"

namespace tunedeck::app {

namespace {

enum BottomTab { ConnectionTab = 0, OutputTab = 1 };

// A problem the loader found, pinned to its line when it is one of this text (the loader names
// the file as `sourceFile` was given, its control characters escaped).
ClusterProblem problemOf(const Problem& found, const QString& sourceFile) {
    ClusterProblem problem;
    problem.warning = !found.isError();
    problem.message = found.text();
    if (found.location.line > 0 && found.location.file == printableText(sourceFile)) {
        problem.line = found.location.line;
        problem.column = found.location.column;
        problem.message = found.keyedMessage();
    }
    return problem;
}

const char* const kNewCluster =
    R"(# A cluster: the machines trials run on and how to reach them (Ray's on-prem shape).
cluster_name: my-cluster
provider:
  type: ssh
  head_ip: 10.0.0.1
  worker_ips: []
auth:
  ssh_user: me
  # ssh_private_key: ~/.ssh/id_ed25519   # without it, the keys of ssh-agent
file_mounts: {}
setup_commands: []
)";

}  // namespace

ClusterEditor::ClusterEditor(const QString& engineBinary, QWidget* parent)
    : YamlDocumentEditor(tr("Untitled cluster"), tr("The cluster has no file yet: save it as one."),
                         parent),
      engineBinary_(engineBinary.isEmpty()
                        ? QDir(QCoreApplication::applicationDirPath()).filePath("tunedeck-engine")
                        : engineBinary) {
    form_ = new ClusterForm;
    auto* formPage = new QScrollArea;
    formPage->setWidget(form_);
    formPage->setWidgetResizable(true);
    formPage->setFrameShape(QFrame::NoFrame);

    test_ = new QPushButton(tr("Test connection"));
    test_->setObjectName(QStringLiteral("testConnection"));
    test_->setToolTip(tr("Log in to every node with this file's auth, as it is now"));
    up_ = new QPushButton(tr("Up"));
    up_->setObjectName(QStringLiteral("clusterUp"));
    up_->setToolTip(tr("Save, then set up every node: the agent, file mounts, setup commands"));
    down_ = new QPushButton(tr("Down"));
    down_->setObjectName(QStringLiteral("clusterDown"));
    down_->setToolTip(tr("Save, then stop the agents and trials on every node"));
    connect(test_, &QPushButton::clicked, this, &ClusterEditor::testConnection);
    connect(up_, &QPushButton::clicked, this, &ClusterEditor::up);
    connect(down_, &QPushButton::clicked, this, &ClusterEditor::down);

    QHBoxLayout* top = makeTopBar();
    top->addSpacing(12);
    top->addWidget(test_);
    top->addWidget(up_);
    top->addWidget(down_);

    check_ = new ClusterConnectionCheck(this);
    checkView_ = new ClusterConnectionView(check_);
    runner_ = new ClusterCommandRunner(this);
    output_ = new ClusterOutputPane(runner_);
    bottom_ = new QTabWidget;
    bottom_->setObjectName(QStringLiteral("clusterActivity"));
    bottom_->addTab(checkView_, tr("Connection"));
    bottom_->addTab(output_, tr("Output"));
    connect(runner_, &ClusterCommandRunner::started, this, [this] {
        bottom_->setCurrentIndex(OutputTab);
        updateActions();
    });
    connect(runner_, &ClusterCommandRunner::finished, this, &ClusterEditor::updateActions);

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(makeTabs(formPage));
    splitter->addWidget(bottom_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    // The form first, also where the window is small: the activity below may shrink to its tabs
    // and a line (its tables scroll).
    bottom_->setMinimumHeight(bottom_->tabBar()->sizeHint().height() +
                              3 * bottom_->fontMetrics().height());
    splitter->setSizes({3000, 1000});
    // The verdict and the problems under everything, as the experiment editor has them: in the
    // splitter a wrapped status line was squeezed to half a line on a small screen.
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);
    layout->addWidget(status_);
    layout->addWidget(problemList_);

    connect(form_, &ClusterForm::editsRequested, this, &ClusterEditor::applyEdits);
    onTextChanged();
}

ClusterEditor::~ClusterEditor() = default;

void ClusterEditor::startNew(const QString& path) {
    setPath(path);
    setText(QString::fromUtf8(kNewCluster));
    textEdit_->document()->setModified(true);
    emit pathChanged(path_);
}

void ClusterEditor::onTextChanged() {
    yaml_ = std::make_shared<const YamlText>(text());
    form_->showText(yaml_, yaml_->isParsed()
                               ? QString()
                               : tr("The YAML text does not parse (line %1: %2). Fix it in the "
                                    "YAML tab to use the form.")
                                     .arg(yaml_->parseErrorLine())
                                     .arg(yaml_->parseError()));
    validateTimer_.start();
}

QString ClusterEditor::sourceFile() const {
    // An unsaved text's relative paths start from the current folder, as the engine's would.
    return path_.isEmpty() ? QDir::current().absoluteFilePath(QStringLiteral("cluster.yaml"))
                           : path_;
}

void ClusterEditor::validateNow() {
    validateTimer_.stop();
    const QString source = sourceFile();
    const LoadResult<ClusterSpec> loaded = loadClusterText(text(), source);
    problems_.clear();
    for (const Problem& problem : loaded.problems) {
        problems_ << problemOf(problem, source);
    }
    std::stable_sort(problems_.begin(), problems_.end(),
                     [](const ClusterProblem& a, const ClusterProblem& b) {
                         return a.line > 0 && b.line > 0 ? a.line < b.line : a.line > b.line;
                     });
    showProblems();
    const int count = int(problems_.size());
    if (loaded.spec) {
        status_->setText(
            tr("Valid: %1").arg(clusterSummary(*loaded.spec)) +
            (count ? QLatin1Char(' ') + tr("%n warning(s).", nullptr, count) : QString()));
    } else {
        status_->setText(tr("%n problem(s) to fix before the cluster can be used.", nullptr,
                            int(loaded.errors().size())));
    }
    emit validated(loaded.spec.has_value(), count);
}

void ClusterEditor::showProblems() {
    QList<ListedProblem> listed;
    for (const ClusterProblem& problem : problems_) {
        ListedProblem shown{problem.message, problem.message, problem.warning, 0, 0};
        if (problem.line > 0) {
            shown.text = tr("Line %1: %2").arg(problem.line).arg(problem.message);
            shown.line = problem.line;
            shown.column = problem.column;
        }
        listed << shown;
    }
    listProblems(listed);
}

void ClusterEditor::testConnection() {
    bottom_->setCurrentIndex(ConnectionTab);
    validateNow();
    const LoadResult<ClusterSpec> loaded = loadClusterText(text(), sourceFile());
    if (!loaded.spec) {
        status_->setText(
            tr("Fix the problems first: the nodes cannot be reached from a cluster "
               "file that does not load."));
        return;
    }
    if (loaded.spec->elastic()) {
        status_->setText(tr("Provider %1: nodes are made as trials wait; there is none to "
                            "connect to yet.")
                             .arg(loaded.spec->provider == ClusterProvider::Slurm
                                      ? QStringLiteral("slurm")
                                      : QStringLiteral("command")));
        return;
    }
    if (loaded.spec->provider == ClusterProvider::Local) {
        status_->setText(
            tr("Provider local: trials run on this machine; there is nothing to "
               "connect to."));
    }
    check_->start(*loaded.spec);
}

void ClusterEditor::up() {
    runCommand(QStringLiteral("up"));
}

void ClusterEditor::down() {
    runCommand(QStringLiteral("down"));
}

void ClusterEditor::runCommand(const QString& verb) {
    if (runner_->isRunning()) {
        return;
    }
    if ((isModified() || !QFileInfo::exists(path_)) && !save()) {
        QMessageBox::warning(this, tr("Cluster %1").arg(verb), error_);
        return;
    }
    runner_->start(engineBinary_, verb, path_);
}

void ClusterEditor::updateActions() {
    const bool running = runner_->isRunning();
    up_->setEnabled(!running);
    down_->setEnabled(!running);
}

namespace {

// The editor's window (editor_window.h: the title, unsaved edits never lost without asking);
// closing it also stops a running command.
class ClusterEditorWindow : public EditorWindow {
  public:
    ClusterEditorWindow(QWidget* parent, ClusterEditor* editor)
        : EditorWindow(editor, ClusterEditor::tr("Tunedeck cluster"), parent), editor_(editor) {}

  protected:
    void closeEvent(QCloseEvent* event) override {
        EditorWindow::closeEvent(event);
        if (event->isAccepted()) {
            editor_->commandRunner()->cancel();
        }
    }

  private:
    ClusterEditor* editor_;
};

}  // namespace

ClusterEditor* openClusterEditor(QWidget* parent, const QString& path,
                                 const QString& engineBinary) {
    auto* editor = new ClusterEditor(engineBinary);
    if (QFileInfo::exists(path)) {
        if (!editor->load(path)) {
            QMessageBox::warning(parent, ClusterEditor::tr("Open cluster file"),
                                 editor->errorString());
            delete editor;
            return nullptr;
        }
    } else {
        editor->startNew(path);
    }
    auto* window = new ClusterEditorWindow(parent, editor);
    window->setAttribute(Qt::WA_DeleteOnClose);
    QMenu* menu = window->menuBar()->addMenu(ClusterEditor::tr("&Cluster"));
    menu->addAction(ClusterEditor::tr("&Save"), QKeySequence::Save, window, &EditorWindow::save);
    menu->addAction(ClusterEditor::tr("&Test connection"),
                    QKeySequence(ClusterEditor::tr("Ctrl+T")), editor,
                    &ClusterEditor::testConnection);
    menu->addAction(ClusterEditor::tr("&Up"), QKeySequence(ClusterEditor::tr("Ctrl+U")), editor,
                    &ClusterEditor::up);
    menu->addAction(ClusterEditor::tr("&Down"), editor, &ClusterEditor::down);
    menu->addSeparator();
    window->addUndoRedo(menu);  // the editor's own actions: one per shortcut
    window->fitToScreen(QSize(1100, 820));
    window->show();
    return editor;
}

}  // namespace tunedeck::app
