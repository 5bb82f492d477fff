// PBT section: the toy problem of the PBT paper (Jaderberg et al., 2017, "Population Based
// Training of Neural Networks", section 4.1 and figure 2). The goal is Q(theta) = 1.2 -
// (theta0^2 + theta1^2), but training only climbs the surrogate Q_hat(theta | h) = 1.2 -
// (h0 theta0^2 + h1 theta1^2) by gradient steps of 0.01 from theta = (0.9, 0.9), with the
// hyperparameters h in [0, 1]^2. Tunedeck's pbt scheduler (through the simulated runtime, one
// worker per member) runs against random search with the same first configs, population and
// steps; the lineage of PBT's winner is kept. Single-threaded.
#pragma once

#include <QJsonObject>

#include "bench_spec.h"

namespace tunedeck::bench {

// {"population", "steps", "interval", "pbt": [best final Q per seed], "random": [...],
//  "exploits": [per seed], "lineage": ["line", ...] (seed 0's winner), "note"}
QJsonObject runPbtToy(const BenchSizes& sizes);

}  // namespace tunedeck::bench
