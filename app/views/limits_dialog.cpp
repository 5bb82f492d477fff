#include "views/limits_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <optional>

#include "client/engine_client.h"

namespace tunedeck::app {

namespace {

constexpr int kLargestLimit = 1000000;

}  // namespace

LimitsDialog::LimitsDialog(client::EngineClient& client, const QString& experiment, int numSamples,
                           int maxConcurrentTrials, QWidget* parent)
    : QDialog(parent),
      client_(client),
      experiment_(experiment),
      numSamples_(numSamples),
      maxConcurrentTrials_(maxConcurrentTrials) {
    setObjectName(QStringLiteral("limitsDialog"));
    setWindowTitle(tr("Change limits of %1").arg(experiment));
    samples_ = new QSpinBox(this);
    samples_->setObjectName(QStringLiteral("numSamples"));
    samples_->setRange(1, kLargestLimit);
    samples_->setValue(numSamples);
    concurrent_ = new QSpinBox(this);
    concurrent_->setObjectName(QStringLiteral("maxConcurrentTrials"));
    // 0 only shows a file's "as many as resources allow"; the engine takes whole numbers >= 1.
    concurrent_->setRange(maxConcurrentTrials > 0 ? 1 : 0, kLargestLimit);
    if (maxConcurrentTrials == 0) {
        concurrent_->setSpecialValueText(tr("No limit"));  // shown at the minimum only
    }
    concurrent_->setValue(maxConcurrentTrials);
    auto* note = new QLabel(tr("More samples make the search propose more trials; fewer than the "
                               "trials already made are refused. A lower limit stops no running "
                               "trial: new ones wait until fewer run. Resume keeps the change."),
                            this);
    note->setWordWrap(true);
    error_ = new QLabel(this);
    error_->setObjectName(QStringLiteral("limitsError"));
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #b00020;"));
    error_->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    apply_ = buttons->addButton(tr("Apply"), QDialogButtonBox::AcceptRole);
    apply_->setObjectName(QStringLiteral("applyLimits"));
    apply_->setDefault(true);
    buttons->button(QDialogButtonBox::Cancel)->setText(tr("Cancel"));
    connect(buttons, &QDialogButtonBox::accepted, this, &LimitsDialog::apply);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout;
    form->addRow(tr("Samples (num_samples)"), samples_);
    form->addRow(tr("Trials at once (max_concurrent_trials)"), concurrent_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(error_);
    layout->addWidget(buttons);
    setMinimumWidth(440);
}

void LimitsDialog::apply() {
    std::optional<int> samples;
    std::optional<int> concurrent;
    if (samples_->value() != numSamples_) {
        samples = samples_->value();
    }
    if (concurrent_->value() != maxConcurrentTrials_) {
        concurrent = concurrent_->value();
    }
    if (!samples && !concurrent) {
        accept();  // nothing changed
        return;
    }
    apply_->setEnabled(false);
    error_->hide();
    QPointer<LimitsDialog> self = this;
    client_.setLimits(
        experiment_, samples, concurrent, [self, samples, concurrent](const Status& status) {
            if (!self) {
                return;
            }
            self->apply_->setEnabled(true);
            if (!status) {
                self->error_->setText(status.message());
                self->error_->show();
                self->growToFit();
                return;
            }
            self->numSamples_ = samples.value_or(self->numSamples_);
            self->maxConcurrentTrials_ = concurrent.value_or(self->maxConcurrentTrials_);
            self->accept();
        });
}

void LimitsDialog::growToFit() {
    // A dialog sizes itself to its contents once, when first shown: the refusal's wrapped lines
    // shown later were given room taken from the fields, squashing them.
    layout()->activate();
    const int needed = layout()->totalHeightForWidth(width());
    if (needed > height()) {
        resize(width(), needed);
    }
}

}  // namespace tunedeck::app
