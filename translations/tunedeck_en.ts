<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>ClusterSummary</name>
    <message numerus="yes">
        <source>%n CPU(s)</source>
        <translation>
            <numerusform>%n CPU</numerusform>
            <numerusform>%n CPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n GPU</numerusform>
            <numerusform>%n GPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>up to %n worker(s)</source>
        <translation>
            <numerusform>up to %n worker</numerusform>
            <numerusform>up to %n workers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n node(s) over SSH as %2: %3.</source>
        <translation>
            <numerusform>%1: %n node over SSH as %2: %3.</numerusform>
            <numerusform>%1: %n nodes over SSH as %2: %3.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 asks Slurm for nodes as trials wait (%n node type(s)): %2.</source>
        <translation>
            <numerusform>%1 asks Slurm for nodes as trials wait (%n node type): %2.</numerusform>
            <numerusform>%1 asks Slurm for nodes as trials wait (%n node types): %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 makes nodes with your commands as trials wait (provider command, %n node type(s)): %2.</source>
        <translation>
            <numerusform>%1 makes nodes with your commands as trials wait (provider command, %n node type): %2.</numerusform>
            <numerusform>%1 makes nodes with your commands as trials wait (provider command, %n node types): %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>At most %n worker(s) in all.</source>
        <translation>
            <numerusform>At most %n worker in all.</numerusform>
            <numerusform>At most %n workers in all.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterConnectionCheck</name>
    <message numerus="yes">
        <source>%1, %n CPU(s)</source>
        <translation>
            <numerusform>%1, %n CPU</numerusform>
            <numerusform>%1, %n CPUs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterEditor</name>
    <message numerus="yes">
        <source>%n warning(s).</source>
        <translation>
            <numerusform>%n warning.</numerusform>
            <numerusform>%n warnings.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) to fix before the cluster can be used.</source>
        <translation>
            <numerusform>%n problem to fix before the cluster can be used.</numerusform>
            <numerusform>%n problems to fix before the cluster can be used.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ContourView</name>
    <message numerus="yes">
        <source>%n trial(s) drawn</source>
        <translation>
            <numerusform>%n trial drawn</numerusform>
            <numerusform>%n trials drawn</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::EdfView</name>
    <message numerus="yes">
        <source>%n trial(s)</source>
        <translation>
            <numerusform>%n trial</numerusform>
            <numerusform>%n trials</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ExperimentEditor</name>
    <message numerus="yes">
        <source>%n warning(s).</source>
        <translation>
            <numerusform>%n warning.</numerusform>
            <numerusform>%n warnings.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) to fix before it can run.</source>
        <translation>
            <numerusform>%n problem to fix before it can run.</numerusform>
            <numerusform>%n problems to fix before it can run.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n parameter(s)</source>
        <translation>
            <numerusform>%n parameter</numerusform>
            <numerusform>%n parameters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s)</source>
        <translation>
            <numerusform>%n trial</numerusform>
            <numerusform>%n trials</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::MetricChart</name>
    <message numerus="yes">
        <source>%n other trial(s)</source>
        <translation>
            <numerusform>%n other trial</numerusform>
            <numerusform>%n other trials</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::OptimizationHistoryView</name>
    <message numerus="yes">
        <source>%n trial(s) with a value; best so far %1 (%2)</source>
        <translation>
            <numerusform>%n trial with a value; best so far %1 (%2)</numerusform>
            <numerusform>%n trials with a value; best so far %1 (%2)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s) with a value; the first of %1 objectives (their trade-off: the Pareto front tab)</source>
        <translation>
            <numerusform>%n trial with a value; the first of %1 objectives (their trade-off: the Pareto front tab)</numerusform>
            <numerusform>%n trials with a value; the first of %1 objectives (their trade-off: the Pareto front tab)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ParetoFrontView</name>
    <message numerus="yes">
        <source>%1 of %n trial(s) on the Pareto front</source>
        <translation>
            <numerusform>%1 of %n trial on the Pareto front</numerusform>
            <numerusform>%1 of %n trials on the Pareto front</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::SearchSpaceTable</name>
    <message numerus="yes">
        <source>No grid parameters: %n config(s) drawn (num_samples).</source>
        <translation>
            <numerusform>No grid parameters: %n config drawn (num_samples).</numerusform>
            <numerusform>No grid parameters: %n configs drawn (num_samples).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n combination(s)</source>
        <translation>
            <numerusform>%n combination</numerusform>
            <numerusform>%n combinations</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s)</source>
        <translation>
            <numerusform>%n sample</numerusform>
            <numerusform>%n samples</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s)</source>
        <translation>
            <numerusform>%n trial</numerusform>
            <numerusform>%n trials</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::SliceView</name>
    <message numerus="yes">
        <source>%n trial(s) with a value</source>
        <translation>
            <numerusform>%n trial with a value</numerusform>
            <numerusform>%n trials with a value</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TimelineView</name>
    <message numerus="yes">
        <source>%n run(s) of trials</source>
        <translation>
            <numerusform>%n run of trials</numerusform>
            <numerusform>%n runs of trials</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TrialDetailView</name>
    <message numerus="yes">
        <source>%n trials selected. Select one trial in the table to see its config, metrics, status history and checkpoints here; the Compare tab sets the selected trials side by side.</source>
        <translation>
            <numerusform>%n trial selected. Select one trial in the table to see its config, metrics, status history and checkpoints here; the Compare tab sets the selected trials side by side.</numerusform>
            <numerusform>%n trials selected. Select one trial in the table to see its config, metrics, status history and checkpoints here; the Compare tab sets the selected trials side by side.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::YamlDocumentEditor</name>
    <message numerus="yes">
        <source>YAML (%n error(s))</source>
        <translation>
            <numerusform>YAML (%n error)</numerusform>
            <numerusform>YAML (%n errors)</numerusform>
        </translation>
    </message>
</context>
</TS>
