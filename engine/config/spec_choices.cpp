#include "config/spec_choices.h"

#include "config/experiment_loader.h"

namespace tunedeck {

QHash<QString, QJsonArray> choiceParametersOfSpec(const QString& specText,
                                                  const QString& sourceFile) {
    QHash<QString, QJsonArray> choices;
    if (specText.isEmpty()) {
        return choices;
    }
    const LoadResult<ExperimentSpec> loaded = loadExperimentText(specText, sourceFile);
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

}  // namespace tunedeck
