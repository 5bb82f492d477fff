#include "models/spec_choices.h"

#include <QDir>

#include "config/experiment_loader.h"

namespace tunedeck::app {

SpecChoices choicesOfSpec(const QString& specText, const QString& folder) {
    SpecChoices choices;
    if (specText.isEmpty()) {
        return choices;
    }
    const LoadResult<ExperimentSpec> loaded =
        loadExperimentText(specText, QDir(folder).filePath(QStringLiteral("experiment.yaml")));
    if (!loaded) {
        return choices;
    }
    for (const auto& [path, domain] : loaded.spec->searchSpace.flatDomains()) {
        if (domain->kind != DomainKind::Choice) {
            continue;
        }
        QJsonArray options;
        bool plain = true;
        for (const DomainOption& option : domain->options) {
            plain = plain && !option.group;
            if (!options.contains(option.value)) {
                options.append(option.value);
            }
        }
        if (plain) {
            choices.insert(path, options);
        }
    }
    return choices;
}

}  // namespace tunedeck::app
