/// Problems found outside the graph, reported by `build()` with the graph's own.
extension ContainerBuilder {
    /// Records a problem that `build()` throws and `validate()` returns, next to the missing
    /// dependencies, cycles and other problems of the graph.
    ///
    /// A package built on Graft checks what it adds while it is being described (a settings
    /// value read from a configuration source, say) and records each mistake here, so the
    /// whole application fails to start with one ``GraftError`` that lists everything wrong.
    ///
    /// ```swift
    /// if port == nil {
    ///     builder.addBuildProblem(GraftError(.missingKey, "ServerSettings needs a port", service: "ServerSettings"))
    /// }
    /// let container = try builder.build()   // throws: build() found 1 problem …
    /// ```
    ///
    /// Problems are reported in the order they were added, before the graph's own.
    ///
    /// - Parameter problem: The problem, with the service it concerns and hints that help.
    public mutating func addBuildProblem(_ problem: GraftError) {
        problems.append(problem)
    }
}
