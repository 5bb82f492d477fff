#include "editors/small_button.h"

namespace tunedeck::app {

QToolButton* smallButton(const QString& text, const QString& tip, const QString& objectName) {
    auto* button = new QToolButton;
    button->setText(text);
    button->setToolTip(tip);
    button->setObjectName(objectName);
    button->setAutoRaise(true);
    return button;
}

}  // namespace tunedeck::app
