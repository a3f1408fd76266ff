/// Diagrams labelled with what a ``StartupRecorder`` observed.
extension Container {
    /// The container's graph as a diagram, each service made labelled with its figures from
    /// `report`: its time, and its own share of it.
    ///
    /// ```swift
    /// print(container.exportGraph(as: .mermaid, labelledWith: recorder.report()))
    /// ```
    ///
    /// - Parameters:
    ///   - format: The diagram language.
    ///   - report: What a ``StartupRecorder`` observed.
    /// - Returns: The diagram's source text.
    public func exportGraph(as format: GraphFormat, labelledWith report: StartupReport) -> String {
        GraphRenderer(graph: core.table.graph, problems: [], notes: report.notes).render(format)
    }
}
