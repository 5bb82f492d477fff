#include "editors/algorithm_options_box.h"

#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>

namespace tunedeck::app {

namespace {

constexpr int kPairsPerRow = 2;  // label and field, twice a row: the options of ASHA in 4 rows

}  // namespace

AlgorithmOptionsBox::AlgorithmOptionsBox(const QString& prefix, QWidget* parent)
    : QWidget(parent), prefix_(prefix), grid_(new QGridLayout(this)) {
    grid_->setContentsMargins(0, 0, 0, 0);
    grid_->setHorizontalSpacing(6);
    grid_->setVerticalSpacing(2);
}

void AlgorithmOptionsBox::rebuild(const QStringList& names) {
    qDeleteAll(cells_);
    cells_.clear();
    fields_.clear();
    names_ = names;
    for (int i = 0; i < names.size(); ++i) {
        const QString& name = names[i];
        auto* label = new QLabel(name);
        auto* edit = new QLineEdit;
        edit->setObjectName(prefix_ + QLatin1Char('_') + name);
        label->setBuddy(edit);
        connect(edit, &QLineEdit::editingFinished, this, [this, name, edit] {
            if (!edit->isReadOnly() && edit->text().trimmed() != shown_.value(name)) {
                emit optionEdited(name, edit->text().trimmed());
            }
        });
        const int row = i / kPairsPerRow;
        const int column = (i % kPairsPerRow) * 2;
        grid_->addWidget(label, row, column);
        grid_->addWidget(edit, row, column + 1);
        grid_->setColumnStretch(column + 1, 1);
        fields_.insert(name, edit);
        cells_ << label << edit;
    }
}

void AlgorithmOptionsBox::showOptions(const AlgorithmInfo* info,
                                      const QList<WrittenValue>& written) {
    QStringList names;
    QMap<QString, QString> defaults;
    if (info) {
        for (const AlgorithmOption& option : info->options) {
            names << option.name;
            defaults.insert(option.name, option.defaultValue);
        }
    }
    QMap<QString, WrittenValue> values;
    for (const WrittenValue& value : written) {
        values.insert(value.key, value);
        if (!names.contains(value.key)) {
            names << value.key;
        }
    }
    if (names != names_) {
        rebuild(names);
    }
    shown_.clear();
    for (const QString& name : names) {
        QLineEdit* edit = fields_.value(name);
        const QSignalBlocker block(edit);
        const auto value = values.constFind(name);
        const bool isWritten = value != values.constEnd();
        const QString text = isWritten ? value->text : QString();
        shown_.insert(name, text);
        if (edit->text() != text) {
            edit->setText(text);
            edit->setCursorPosition(0);
        }
        edit->setReadOnly(isWritten && value->block);
        edit->setPlaceholderText(
            defaults.contains(name) ? tr("%1 (default)").arg(defaults.value(name)) : QString());
        if (isWritten && value->block) {
            edit->setToolTip(
                tr("%1 is written over several lines: edit it in the YAML tab.").arg(name));
        } else if (!defaults.contains(name)) {
            edit->setToolTip(tr("%1 as the file writes it; the engine's check says whether it "
                                "applies here.")
                                 .arg(name));
        } else if (isWritten) {
            edit->setToolTip(tr("%1 as the file sets it; clear it for the default, %2.")
                                 .arg(name, defaults.value(name)));
        } else {
            edit->setToolTip(tr("%1 is not in the file: the default, %2, applies.")
                                 .arg(name, defaults.value(name)));
        }
    }
    setVisible(!names.isEmpty());
}

}  // namespace tunedeck::app
