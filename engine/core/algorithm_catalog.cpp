#include "core/algorithm_catalog.h"

namespace tunedeck {

Status checkAlgorithmChoice(const AlgorithmSpec& spec, const QStringList& knownNames,
                            const QStringList* options, const AlgorithmFamily& family,
                            QString* badKey) {
    auto fail = [&](const QString& key, const QString& message) {
        if (badKey) {
            *badKey = family.section + '.' + key;
        }
        return Status::invalid(message);
    };
    if (!options) {
        return fail(family.nameKey, QStringLiteral("unknown %1 '%2'; known %3: %4")
                                        .arg(family.noun, spec.name, family.plural,
                                             knownNames.join(QStringLiteral(", "))));
    }
    for (auto it = spec.options.begin(); it != spec.options.end(); ++it) {
        if (!options->contains(it.key())) {
            const QString allowed =
                options->isEmpty()
                    ? QStringLiteral("%1 '%2' takes no options").arg(family.noun, spec.name)
                    : QStringLiteral("allowed: %1").arg(options->join(QStringLiteral(", ")));
            return fail(it.key(), QStringLiteral("unknown option '%1' for %2 '%3'; %4")
                                      .arg(it.key(), family.noun, spec.name, allowed));
        }
    }
    return Status::ok();
}

}  // namespace tunedeck
