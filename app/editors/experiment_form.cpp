#include "editors/experiment_form.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>
#include <climits>

#include "editors/algorithm_catalog.h"
#include "editors/algorithm_options_box.h"
#include "editors/small_button.h"
#include "editors/stop_criteria_table.h"

namespace tunedeck::app {

namespace {

QStringList splitList(const QString& text) {
    QStringList values;
    for (const QString& part : text.split(QLatin1Char(','))) {
        if (!part.trimmed().isEmpty()) {
            values << part.trimmed();
        }
    }
    return values;
}

QSpinBox* spinBox(int minimum, const QString& special, const char* objectName) {
    auto* box = new QSpinBox;
    box->setObjectName(QLatin1String(objectName));
    box->setRange(minimum, INT_MAX);
    box->setSpecialValueText(special);
    box->setKeyboardTracking(false);  // one edit per value typed, not per digit
    return box;
}

void setLineText(QLineEdit* edit, const QString& text) {
    if (edit->text() != text) {
        edit->setText(text);
    }
}

}  // namespace

ExperimentForm::ExperimentForm(QWidget* parent) : QWidget(parent) {
    banner_ = new QLabel;
    banner_->setObjectName(QStringLiteral("formBanner"));
    banner_->setWordWrap(true);
    banner_->setStyleSheet(
        QStringLiteral("QLabel { background: #fdecea; color: #8a1c1c; "
                       "padding: 6px; border-radius: 3px; }"));
    banner_->hide();

    name_ = new QLineEdit;
    name_->setObjectName(QStringLiteral("name"));
    name_->setPlaceholderText(tr("names the experiment and its results folder"));
    workingDir_ = new QLineEdit;
    workingDir_->setObjectName(QStringLiteral("workingDir"));
    workingDir_->setPlaceholderText(tr("the experiment file's folder"));
    metric_ = new QLineEdit;
    metric_->setObjectName(QStringLiteral("metric"));
    metric_->setPlaceholderText(tr("e.g. loss; several: loss, latency"));
    mode_ = new QComboBox;
    mode_->setObjectName(QStringLiteral("mode"));
    mode_->setEditable(true);
    mode_->addItems({QStringLiteral("min"), QStringLiteral("max")});
    mode_->lineEdit()->setPlaceholderText(tr("min or max"));
    numSamples_ = spinBox(1, QString(), "numSamples");
    maxConcurrent_ = spinBox(0, tr("as many as resources allow"), "maxConcurrentTrials");
    checkpointFrequency_ =
        spinBox(0, tr("only when the trial saves on its own"), "checkpointFrequency");
    maxFailures_ = spinBox(-1, tr("unlimited retries"), "maxFailures");

    search_ = new QComboBox;
    search_->setObjectName(QStringLiteral("searchAlgorithm"));
    searchOptions_ = new QLabel;
    scheduler_ = new QComboBox;
    scheduler_->setObjectName(QStringLiteral("schedulerType"));
    schedulerOptions_ = new QLabel;
    for (QLabel* caption : {searchOptions_, schedulerOptions_}) {
        caption->setWordWrap(true);
        caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
        caption->setForegroundRole(QPalette::PlaceholderText);
    }
    searchOptionsBox_ = new AlgorithmOptionsBox(QStringLiteral("searchOption"));
    schedulerOptionsBox_ = new AlgorithmOptionsBox(QStringLiteral("schedulerOption"));
    connect(searchOptionsBox_, &AlgorithmOptionsBox::optionEdited, this,
            [this](const QString& key, const QString& typed) {
                emit optionEdited(OptionSection::Search, key, typed);
            });
    connect(schedulerOptionsBox_, &AlgorithmOptionsBox::optionEdited, this,
            [this](const QString& key, const QString& typed) {
                emit optionEdited(OptionSection::Scheduler, key, typed);
            });
    stop_ = new StopCriteriaTable;
    connect(stop_, &StopCriteriaTable::criterionEdited, this,
            [this](const QString& key, const QString& typed) {
                emit optionEdited(OptionSection::Stop, key, typed);
            });
    connect(stop_, &StopCriteriaTable::criterionRenamed, this,
            &ExperimentForm::stopCriterionRenamed);
    fillPicker(search_, QStringLiteral("random"), true);
    fillPicker(scheduler_, QStringLiteral("fifo"), false);

    for (QComboBox* picker : {search_, scheduler_}) {  // long descriptions must not widen the form
        picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        picker->setMinimumContentsLength(24);
    }

    auto* experiment = new QGroupBox(tr("Experiment"));
    auto* left = new QFormLayout;
    left->addRow(tr("Name"), name_);
    left->addRow(tr("Command"), commandEditor());
    left->addRow(tr("Working folder"), workingDir_);
    left->addRow(tr("Metric"), metric_);
    left->addRow(tr("Mode"), mode_);
    left->addRow(tr("Samples"), numSamples_);
    left->addRow(tr("Trials at once"), maxConcurrent_);
    left->addRow(tr("Stop when"), stop_);

    auto* scheduling = new QGroupBox(tr("Search and scheduling"));
    auto* right = new QFormLayout;
    // Each picker with its description below it, in one cell so the caption wraps to the cell;
    // its options under both, the group's whole width, so their defaults read whole.
    auto pickerCell = [](QComboBox* picker, QLabel* caption) {
        auto* cell = new QWidget;
        auto* stack = new QVBoxLayout(cell);
        stack->setContentsMargins(0, 0, 0, 0);
        stack->setSpacing(2);
        stack->addWidget(picker);
        stack->addWidget(caption);
        return cell;
    };
    right->addRow(tr("Search algorithm"), pickerCell(search_, searchOptions_));
    right->addRow(searchOptionsBox_);
    right->addRow(tr("Scheduler"), pickerCell(scheduler_, schedulerOptions_));
    right->addRow(schedulerOptionsBox_);
    right->addRow(tr("Checkpoint every"), checkpointFrequency_);
    right->addRow(tr("Retries per trial"), maxFailures_);
    checkpointFrequency_->setSuffix(tr(" iterations"));

    // Rows keep their natural height; the shorter column leaves its space below.
    for (const auto& [box, form] : {std::pair{experiment, left}, std::pair{scheduling, right}}) {
        auto* column = new QVBoxLayout(box);
        column->addLayout(form);
        column->addStretch();
    }
    experimentBox_ = experiment;
    schedulingBox_ = scheduling;
    columns_ = new QBoxLayout(QBoxLayout::LeftToRight);
    columns_->addWidget(experiment, 1);
    columns_->addWidget(scheduling, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(banner_);
    layout->addLayout(columns_);

    connect(name_, &QLineEdit::editingFinished, this,
            [this] { commitText(FormField::Name, name_->text()); });
    connect(workingDir_, &QLineEdit::editingFinished, this,
            [this] { commitText(FormField::WorkingDir, workingDir_->text().trimmed()); });
    connect(metric_, &QLineEdit::editingFinished, this, [this] {
        if (splitList(metric_->text()) != shown_.metric) {
            emit fieldEdited(FormField::Metric, splitList(metric_->text()));
        }
    });
    auto commitMode = [this] {
        if (splitList(mode_->currentText()) != shown_.mode) {
            emit fieldEdited(FormField::Mode, splitList(mode_->currentText()));
        }
    };
    connect(mode_, &QComboBox::activated, this, commitMode);
    connect(mode_->lineEdit(), &QLineEdit::editingFinished, this, commitMode);
    const QList<std::pair<QSpinBox*, FormField>> numbers{
        {numSamples_, FormField::NumSamples},
        {maxConcurrent_, FormField::MaxConcurrentTrials},
        {checkpointFrequency_, FormField::CheckpointFrequency},
        {maxFailures_, FormField::MaxFailures}};
    for (const auto& [box, field] : numbers) {
        connect(box, &QSpinBox::valueChanged, this, [this, field = field](int value) {
            if (shown_.value(field).toInt() != value) {
                emit fieldEdited(field, value);
            }
        });
    }
    connect(search_, &QComboBox::activated, this,
            [this] { commitText(FormField::SearchAlgorithm, search_->currentData().toString()); });
    connect(scheduler_, &QComboBox::activated, this,
            [this] { commitText(FormField::SchedulerType, scheduler_->currentData().toString()); });
}

void ExperimentForm::setStacked(bool stacked) {
    const auto direction = stacked ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight;
    if (columns_->direction() != direction) {
        columns_->setDirection(direction);
    }
}

int ExperimentForm::sideBySideWidth() const {
    const QMargins margins = layout()->contentsMargins();
    return experimentBox_->minimumSizeHint().width() + schedulingBox_->minimumSizeHint().width() +
           columns_->spacing() + margins.left() + margins.right();
}

QWidget* ExperimentForm::commandEditor() {
    command_ = new QListWidget;
    command_->setObjectName(QStringLiteral("command"));
    command_->setToolTip(
        tr("One argument per row, passed to the program as it is: no shell "
           "splits or expands it. {name} is replaced by that parameter's value."));
    command_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                              QAbstractItemView::SelectedClicked);
    command_->setMaximumHeight(command_->fontMetrics().height() * 6);
    commandNote_ = new QLabel;
    commandNote_->setWordWrap(true);
    commandNote_->setForegroundRole(QPalette::PlaceholderText);
    commandNote_->hide();
    connect(command_, &QListWidget::itemChanged, this, [this] {
        QStringList arguments;
        for (int row = 0; row < command_->count(); ++row) {
            arguments << command_->item(row)->text();
        }
        commitCommand(arguments);
    });

    QToolButton* add =
        smallButton(QStringLiteral("+"), tr("Add an argument"), QStringLiteral("addArgument"));
    QToolButton* remove = smallButton(QStringLiteral("−"), tr("Remove the argument"),
                                      QStringLiteral("removeArgument"));
    QToolButton* up =
        smallButton(QStringLiteral("↑"), tr("Move the argument up"), QStringLiteral("argumentUp"));
    QToolButton* down = smallButton(QStringLiteral("↓"), tr("Move the argument down"),
                                    QStringLiteral("argumentDown"));
    connect(add, &QToolButton::clicked, this, [this] {
        QStringList arguments = shown_.command;
        const int at =
            command_->currentRow() + 1 > 0 ? command_->currentRow() + 1 : int(arguments.size());
        arguments.insert(at, tr("argument"));
        commitCommand(arguments, at);
    });
    connect(remove, &QToolButton::clicked, this, [this] {
        QStringList arguments = shown_.command;
        if (command_->currentRow() >= 0 && command_->currentRow() < arguments.size()) {
            arguments.removeAt(command_->currentRow());
            commitCommand(arguments);
        }
    });
    auto move = [this](int by) {
        QStringList arguments = shown_.command;
        const int from = command_->currentRow();
        const int to = from + by;
        if (from >= 0 && to >= 0 && to < arguments.size()) {
            arguments.move(from, to);
            commitCommand(arguments);
            command_->setCurrentRow(to);
        }
    };
    connect(up, &QToolButton::clicked, this, [move] { move(-1); });
    connect(down, &QToolButton::clicked, this, [move] { move(1); });

    auto* buttons = new QVBoxLayout;
    buttons->setSpacing(0);
    for (QToolButton* b : {add, remove, up, down}) {
        buttons->addWidget(b);
    }
    buttons->addStretch();
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(command_, 1);
    row->addLayout(buttons);
    auto* box = new QWidget;
    auto* column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    column->addLayout(row);
    column->addWidget(commandNote_);
    return box;
}

void ExperimentForm::commitCommand(QStringList arguments, int editRow) {
    if (arguments == shown_.command) {
        return;
    }
    pendingEditRow_ = editRow;
    emit fieldEdited(FormField::Command, arguments);
}

void ExperimentForm::commitText(FormField field, const QString& text) {
    if (shown_.value(field).toString() != text) {
        emit fieldEdited(field, text);
    }
}

void ExperimentForm::fillPicker(QComboBox* picker, const QString& current, bool searchers) {
    const QList<AlgorithmInfo> catalog = searchers ? searchAlgorithms() : schedulerTypes();
    const QSignalBlocker block(picker);
    if (picker->count() == 0) {
        for (const AlgorithmInfo& info : catalog) {
            // The name only: "name — description" was cut off at 1280x800. The description is
            // the caption under the picker, and each item's tooltip in the list.
            QString text = info.name;
            if (info.isDefault) {
                text += tr(" (default)");
            }
            picker->addItem(text, info.name);
            picker->setItemData(picker->count() - 1,
                                tr("%1 — %2").arg(info.name, info.description) + "\n" +
                                    tr("Options (default): %1").arg(optionsSummary(info)),
                                Qt::ToolTipRole);
        }
    }
    // A name the catalogue does not know stays visible; the engine's validation names it.
    for (int i = picker->count() - 1; i >= int(catalog.size()); --i) {
        picker->removeItem(i);
    }
    int index = picker->findData(current);
    if (index < 0) {
        picker->addItem(tr("%1 — not a known name").arg(current), current);
        index = picker->count() - 1;
    }
    picker->setCurrentIndex(index);
    showPickerOptions(picker, searchers);
}

// The description under the picker, and the options with the file's values: the defaults,
// marked as such, only where the file is silent.
void ExperimentForm::showPickerOptions(QComboBox* picker, bool searchers) {
    const QString name = picker->currentData().toString();
    QLabel* caption = searchers ? searchOptions_ : schedulerOptions_;
    AlgorithmOptionsBox* options = searchers ? searchOptionsBox_ : schedulerOptionsBox_;
    const QList<WrittenValue>& written =
        shown_.options(searchers ? OptionSection::Search : OptionSection::Scheduler);
    const QList<AlgorithmInfo> catalog = searchers ? searchAlgorithms() : schedulerTypes();
    for (const AlgorithmInfo& info : catalog) {
        if (info.name == name) {
            caption->setText(info.description);
            options->showOptions(&info, written);
            return;
        }
    }
    caption->clear();
    options->showOptions(nullptr, written);
}

void ExperimentForm::showFields(const ExperimentFields& fields, bool editable, const QString& why) {
    shown_ = fields;
    banner_->setVisible(!editable);
    banner_->setText(why);
    for (QWidget* widget : findChildren<QWidget*>()) {
        if (widget != banner_ && widget->parentWidget() == this) {
            widget->setEnabled(editable);
        }
    }
    const QList<QWidget*> signalling{name_,       command_,    workingDir_,    metric_,
                                     mode_,       numSamples_, maxConcurrent_, checkpointFrequency_,
                                     maxFailures_};
    QList<std::shared_ptr<QSignalBlocker>> blockers;
    for (QWidget* widget : signalling) {
        blockers << std::make_shared<QSignalBlocker>(widget);
    }
    setLineText(name_, fields.name);
    setLineText(workingDir_, fields.workingDir);
    setLineText(metric_, fields.metric.join(QStringLiteral(", ")));
    if (mode_->currentText() != fields.mode.join(QStringLiteral(", "))) {
        mode_->setCurrentText(fields.mode.join(QStringLiteral(", ")));
    }
    numSamples_->setValue(fields.numSamples);
    maxConcurrent_->setValue(fields.maxConcurrentTrials);
    checkpointFrequency_->setValue(fields.checkpointFrequency);
    maxFailures_->setValue(fields.maxFailures);
    fillPicker(search_, fields.searchAlgorithm, true);
    fillPicker(scheduler_, fields.schedulerType, false);
    stop_->showCriteria(fields.stop, fields.metric);

    QStringList listed;
    for (int row = 0; row < command_->count(); ++row) {
        listed << command_->item(row)->text();
    }
    if (listed != fields.command) {
        const int current = command_->currentRow();
        command_->clear();
        for (const QString& argument : fields.command) {
            auto* item = new QListWidgetItem(argument, command_);
            item->setFlags(item->flags() | Qt::ItemIsEditable);
        }
        command_->setCurrentRow(std::min(current, command_->count() - 1));
    }
    commandNote_->setVisible(!fields.commandProblem.isEmpty());
    commandNote_->setText(fields.commandProblem);
    if (pendingEditRow_ >= 0 && pendingEditRow_ < command_->count()) {
        const int row = pendingEditRow_;
        QTimer::singleShot(0, command_, [this, row] {
            if (row < command_->count()) {
                command_->setCurrentRow(row);
                command_->editItem(command_->item(row));
            }
        });
    }
    pendingEditRow_ = -1;
}

}  // namespace tunedeck::app
