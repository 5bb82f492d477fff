#include "models/spec_choices.h"

#include <QDir>

#include "config/spec_choices.h"

namespace tunedeck::app {

SpecChoices choicesOfSpec(const QString& specText, const QString& folder) {
    return choiceParametersOfSpec(specText,
                                  QDir(folder).filePath(QStringLiteral("experiment.yaml")));
}

}  // namespace tunedeck::app
