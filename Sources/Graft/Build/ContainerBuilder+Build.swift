/// Freezing a builder into a container, after checking the whole graph.
extension ContainerBuilder {
    /// Validates the whole graph and freezes it into a ``Container``.
    ///
    /// Every missing dependency, cycle, captive dependency and unmet module requirement is
    /// reported at once, in one error, before any object exists. Then `.eagerSingleton`s are
    /// created, in registration order.
    ///
    /// ```swift
    /// let container = try builder.build()
    /// ```
    ///
    /// In `async` code Swift picks the `async` overload, which can also create eager singletons
    /// that need `await`.
    ///
    /// - Returns: The container.
    /// - Throws: ``GraftError`` with code ``GraftError/Code/invalidGraph``, listing each problem
    ///   in ``GraftError/problems``.
    public func build() throws(GraftError) -> Container {
        let container = try makeContainer(buildIsAsync: false)
        try finishEagerCreation(container, container.createEagerSingletons())
        return container
    }

    /// Validates the whole graph and freezes it into a ``Container``, awaiting eager singletons
    /// that need `await`.
    ///
    /// - Returns: The container.
    /// - Throws: ``GraftError`` with code ``GraftError/Code/invalidGraph``.
    public func build() async throws(GraftError) -> Container {
        let container = try makeContainer(buildIsAsync: true)
        try finishEagerCreation(container, await container.createEagerSingletons())
        return container
    }

    /// Every problem the synchronous `build()` would report, without throwing or creating
    /// anything.
    ///
    /// ```swift
    /// @Test func appGraphIsValid() {
    ///     #expect(AppComposition.builder().validate().isEmpty)
    /// }
    /// ```
    ///
    /// `validate()` comes in the same two forms as `build()`, and Swift picks between them the
    /// same way, so `validate()` spelled like the `build()` beside it reports exactly what that
    /// `build()` throws: this synchronous one includes an `.eagerSingleton` that needs `await`
    /// (which only `try await build()` can create); `await validate()` does not. A problem made
    /// by running a factory (an eager singleton whose factory throws) is not found here: nothing
    /// is created.
    ///
    /// - Returns: The problems, in a deterministic order; empty when the graph is valid.
    public func validate() -> [GraftError] {
        problems(in: link(), buildIsAsync: false)
    }

    /// Every problem `try await build()` would report, without throwing or creating anything.
    ///
    /// ```swift
    /// @Test func appGraphIsValid() async {
    ///     #expect(await AppComposition.builder().validate().isEmpty)
    /// }
    /// ```
    ///
    /// - Returns: The problems, in a deterministic order; empty when the graph is valid.
    public func validate() async -> [GraftError] {
        problems(in: link(), buildIsAsync: true)
    }

    /// Links the registrations into the graph that validation, export and freezing read.
    func link() -> DependencyGraph {
        DependencyGraph.linking(decoratedRegistrations())
    }

    func problems(in graph: DependencyGraph, buildIsAsync: Bool) -> [GraftError] {
        problems + lifetimeChangingReplacements()
            + GraphValidator(graph: graph, requirements: requirements).problems(buildIsAsync: buildIsAsync)
            + LifecyclePlan.problems(hooks: lifecycleHooks, graph: graph)
    }

    /// Links, validates and freezes: data flows one way, and the runtime table is built only
    /// once the graph is known to be valid.
    private func makeContainer(buildIsAsync: Bool) throws(GraftError) -> Container {
        let graph = link()
        let problems = problems(in: graph, buildIsAsync: buildIsAsync)
        guard problems.isEmpty else { throw Self.invalidGraph(problems) }
        return Container(
            freezing: graph,
            requirements: requirements,
            lifecycle: LifecyclePlan(hooks: lifecycleHooks, graph: graph),
            problemReporter: unhandledErrorHandler,
            observers: observers
        )
    }

    /// Throws the eager failures, after disposing the eager singletons that were created.
    func finishEagerCreation(
        _ container: Container,
        _ failures: [GraftError],
        by operation: String = "build()"
    ) throws(GraftError) {
        guard !failures.isEmpty else { return }
        container.discardAfterFailedBuild()
        throw Self.invalidGraph(failures, by: operation)
    }

    /// The one error that lists what `operation` (`build()`, `makeChild()`) found.
    static func invalidGraph(_ problems: [GraftError], by operation: String = "build()") -> GraftError {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return GraftError(
            .invalidGraph,
            "\(operation) found \(count)",
            hints: [],
            problems: problems
        )
    }
}

extension ContainerBuilder {
    /// The registrations as a diagram, with every problem ``validate()-3o4z6`` finds highlighted.
    ///
    /// - Parameter format: The diagram language.
    /// - Returns: The diagram's source text.
    public func exportGraph(as format: GraphFormat) -> String {
        let graph = link()
        return GraphRenderer(graph: graph, problems: problems(in: graph, buildIsAsync: true)).render(format)
    }
}
