#include "editors/experiment_editor.h"

#include <QEvent>
#include <QFileInfo>
#include <QGroupBox>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "api/problems_json.h"
#include "editors/experiment_form.h"
#include "editors/search_space_table.h"
#include "models/experiment_data.h"

namespace tunedeck::app {

namespace {

// A scroll area that asks for its form's whole height (QScrollArea's own hint stops at 24 lines),
// so the splitter gives the form what it needs before the search space takes the rest.
class FormScroller : public QScrollArea {
  public:
    QSize sizeHint() const override {
        const int frame = 2 * frameWidth();
        return widget() ? widget()->sizeHint() + QSize(frame, frame) : QScrollArea::sizeHint();
    }
};

}  // namespace

ExperimentEditor::ExperimentEditor(client::EngineClient* client, QWidget* parent)
    : YamlDocumentEditor(tr("Untitled experiment"),
                         tr("The experiment has no file yet: save it as one."), parent),
      client_(client) {
    qRegisterMetaType<FormField>();
    qRegisterMetaType<OptionSection>();
    form_ = new ExperimentForm;
    table_ = new SearchSpaceTable;

    auto* space = new QGroupBox(tr("Search space"));
    auto* spaceLayout = new QVBoxLayout(space);
    spaceLayout->addWidget(table_, 2);
    // What the searcher would start with, from the engine's last validation.
    preview_ = new QTableWidget;
    preview_->setObjectName(QStringLiteral("samplePreview"));
    preview_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    preview_->setToolTip(tr("The first configs the run would try, with this seed and searcher"));
    auto* previewTitle = new QLabel(tr("Sampled configs (the first the run would try):"));
    previewTitle->setWordWrap(true);
    spaceLayout->addWidget(previewTitle);
    spaceLayout->addWidget(preview_, 1);
    // The form scrolls on a small screen (1280x800 at 200%) instead of squeezing its rows, and
    // stacks its two columns where they do not fit side by side; the search space below it
    // takes the rest of the page.
    auto* formScroller = new FormScroller;
    formScroller->setObjectName(QStringLiteral("formScroller"));
    formScroller->setWidget(form_);
    formScroller->setWidgetResizable(true);
    formScroller->setFrameShape(QFrame::NoFrame);
    formScroller->viewport()->installEventFilter(this);
    formScroller->setMinimumHeight(formScroller->fontMetrics().height() * 8);
    auto* formPage = new QSplitter(Qt::Vertical);
    formPage->setChildrenCollapsible(false);
    formPage->addWidget(formScroller);
    formPage->addWidget(space);
    formPage->setStretchFactor(0, 0);
    formPage->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(makeTopBar());
    layout->addWidget(makeTabs(formPage), 1);
    layout->addWidget(status_);
    layout->addWidget(problemList_);

    connect(form_, &ExperimentForm::fieldEdited, this, &ExperimentEditor::onFieldEdited);
    connect(form_, &ExperimentForm::optionEdited, this,
            [this](OptionSection section, const QString& key, const QString& typed) {
                applyOrRevert(yaml_ ? optionEdit(*yaml_, section, key, typed) : std::nullopt);
            });
    connect(form_, &ExperimentForm::stopCriterionRenamed, this,
            [this](const QString& from, const QString& to) {
                applyOrRevert(yaml_ ? stopRenameEdit(*yaml_, from, to) : std::nullopt);
            });
    connect(table_, &SearchSpaceTable::editsRequested, this, &ExperimentEditor::applyEdits);
    if (client_) {
        connect(client_, &client::EngineClient::ready, this, [this] {
            if (waitingForEngine_) {
                validateNow();
            }
        });
        connect(client_, &client::EngineClient::connectionLost, this,
                [this] { showNotConnected(); });
    }
    onTextChanged();
}

ExperimentEditor::~ExperimentEditor() = default;

bool ExperimentEditor::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize && watched == form_->parentWidget()) {
        form_->setStacked(form_->parentWidget()->width() < form_->sideBySideWidth());
    }
    return YamlDocumentEditor::eventFilter(watched, event);
}

void ExperimentEditor::onTextChanged() {
    ++generation_;  // an answer about the text before this change would pin to the wrong lines
    yaml_ = std::make_shared<const YamlText>(text());
    if (yaml_->isParsed()) {
        lastFields_ = readExperimentFields(*yaml_);
        form_->showFields(lastFields_, true);
    } else {  // the form keeps the last values it could read, read-only
        form_->showFields(lastFields_, false,
                          tr("The YAML text does not parse (line %1: %2). Fix it in the YAML "
                             "tab to use the form.")
                              .arg(yaml_->parseErrorLine())
                              .arg(yaml_->parseError()));
    }
    table_->showText(yaml_, lastFields_.numSamples);
    validateTimer_.start();
}

void ExperimentEditor::onFieldEdited(FormField field, const QVariant& value) {
    applyOrRevert(yaml_ ? fieldEdit(*yaml_, field, value) : std::nullopt);
}

void ExperimentEditor::applyOrRevert(const std::optional<TextEdit>& edit) {
    if (edit) {
        applyEdits({*edit});
    } else if (yaml_) {
        form_->showFields(readExperimentFields(*yaml_), yaml_->isParsed());  // undo the widget
    }
}

void ExperimentEditor::showNotConnected() {
    waitingForEngine_ = true;
    ++generation_;  // an answer still on its way belongs to a connection that is gone
    problems_.clear();
    showProblems();
    status_->setText(
        tr("No engine connected: the experiment is checked once the app is "
           "attached to one."));
    if (runAfterCheck_) {
        runAfterCheck_ = false;
        status_->setText(tr("Not started: no engine is connected."));
    }
}

void ExperimentEditor::checkAndRun() {
    runAfterCheck_ = true;
    validateNow();
}

void ExperimentEditor::finishRunCheck(bool valid) {
    runAfterCheck_ = false;
    if (valid) {
        emit readyToRun();
        return;
    }
    status_->setText(tr("Not started: fix the problems listed below first."));
    // The first error in this text, else the first problem.
    int first = -1;
    for (int row = 0; row < problems_.size() && first < 0; ++row) {
        first = problems_[row].pinned && !problems_[row].warning ? row : first;
    }
    showProblem(first >= 0 ? first : 0);
}

void ExperimentEditor::showRunRefused(const QString& message) {
    status_->setText(tr("Not started: %1").arg(message));
}

void ExperimentEditor::validateNow() {
    validateTimer_.stop();
    if (!client_ || !client_->isReady()) {
        showNotConnected();
        return;
    }
    waitingForEngine_ = false;
    const quint64 generation = ++generation_;
    status_->setText(tr("Checking…"));
    const QString sent = path_;
    QPointer<ExperimentEditor> self(this);
    client_->validate(text(), path_, [self, generation, sent](const QJsonObject& answer) {
        if (self && generation == self->generation_) {
            self->onValidated(answer, sent);
        }
    });
}

bool ExperimentEditor::isThisFile(const QString& file, const QString& sentFileName) const {
    if (sentFileName.isEmpty()) {  // the engine names an unsaved text after its results root
        return file.endsWith(QLatin1String("experiment.yaml"));
    }
    return file == sentFileName ||
           QFileInfo(file).absoluteFilePath() == QFileInfo(sentFileName).absoluteFilePath();
}

void ExperimentEditor::onValidated(const QJsonObject& answer, const QString& sentFileName) {
    if (!answer.value(QStringLiteral("ok")).toBool()) {
        problems_.clear();
        showProblems();
        const QString message = answer.value(QStringLiteral("error"))
                                    .toObject()
                                    .value(QStringLiteral("message"))
                                    .toString();
        status_->setText(
            runAfterCheck_
                ? tr("Not started: the engine could not check the experiment: %1").arg(message)
                : tr("The engine could not check the experiment: %1").arg(message));
        runAfterCheck_ = false;
        return;
    }
    problems_.clear();
    for (const Problem& found : api::problemsOfValidation(answer)) {
        ValidationProblem problem;
        problem.file = found.location.file;
        problem.line = found.location.line;
        problem.column = found.location.column;
        problem.message = found.keyedMessage();
        problem.warning = !found.isError();
        problem.pinned = problem.line > 0 && isThisFile(problem.file, sentFileName);
        problems_ << problem;
    }
    std::stable_sort(problems_.begin(), problems_.end(),
                     [](const ValidationProblem& a, const ValidationProblem& b) {
                         return a.pinned && b.pinned ? a.line < b.line : a.pinned > b.pinned;
                     });
    showProblems();
    const bool valid = answer.value(QStringLiteral("valid")).toBool();
    const int count = int(problems_.size());
    showPreview(answer.value(QStringLiteral("preview")).toArray());
    if (valid) {
        const QJsonValue trials = answer.value(QStringLiteral("trials"));
        // Each count in its own words, so that it reads "1 parameter" and "12 trials".
        const QString parameters =
            tr("%n parameter(s)", nullptr, answer.value(QStringLiteral("parameters")).toInt());
        const QString trialCount = trials.isDouble()
                                       ? tr("%n trial(s)", nullptr, int(trials.toInteger()))
                                       : tr("unbounded trials");
        status_->setText(
            tr("Valid: %1, search %2, scheduler %3, %4.")
                .arg(parameters, answer.value(QStringLiteral("search")).toString(),
                     answer.value(QStringLiteral("scheduler")).toString(), trialCount) +
            (count ? QLatin1Char(' ') + tr("%n warning(s).", nullptr, count) : QString()));
    } else {
        status_->setText(tr("%n problem(s) to fix before it can run.", nullptr, count));
    }
    emit validated(valid, count);
    if (runAfterCheck_) {
        finishRunCheck(valid);
    }
}

void ExperimentEditor::showPreview(const QJsonArray& configs) {
    QStringList keys;
    QList<QJsonObject> rows;
    for (const QJsonValue& value : configs) {
        rows << ExperimentData::flatten(value.toObject());
        for (const QString& key : rows.last().keys()) {
            if (!keys.contains(key)) {
                keys << key;
            }
        }
    }
    keys.sort();
    preview_->clear();
    preview_->setColumnCount(int(keys.size()));
    preview_->setRowCount(int(rows.size()));
    preview_->setHorizontalHeaderLabels(keys);
    for (int r = 0; r < rows.size(); ++r) {
        for (int c = 0; c < keys.size(); ++c) {
            const QJsonValue v = rows[r].value(keys[c]);
            preview_->setItem(
                r, c,
                new QTableWidgetItem(v.isDouble() ? QString::number(v.toDouble(), 'g', 4)
                                                  : v.toVariant().toString()));
        }
    }
}

void ExperimentEditor::showProblems() {
    QList<ListedProblem> listed;
    for (const ValidationProblem& problem : problems_) {
        ListedProblem shown{problem.message, problem.message, problem.warning, 0, 0};
        if (problem.pinned) {
            shown.text = tr("Line %1: %2").arg(problem.line).arg(problem.message);
            shown.line = problem.line;
            shown.column = problem.column;
        } else if (!problem.file.isEmpty() && problem.line > 0) {
            shown.text = tr("%1, line %2: %3")
                             .arg(QFileInfo(problem.file).fileName())
                             .arg(problem.line)
                             .arg(problem.message);
        } else if (!problem.file.isEmpty()) {  // about the file as a whole
            shown.text =
                QStringLiteral("%1: %2").arg(QFileInfo(problem.file).fileName(), problem.message);
        }
        listed << shown;
    }
    listProblems(listed);
}

}  // namespace tunedeck::app
