/// Freezing: the container `build()` returns, made from a validated graph.
extension Container {
    /// The container frozen from `graph`, which linking made and validation accepted.
    convenience init(
        freezing graph: DependencyGraph,
        requirements: [ModuleRequirement],
        lifecycle: LifecyclePlan = .empty,
        problemReporter: @escaping @Sendable (GraftError) -> Void,
        observers: [any ContainerObserver] = []
    ) {
        let table = RegistrationTable(
            graph: graph,
            requirements: requirements,
            problemReporter: problemReporter,
            observers: Observers.of(observers)
        )
        self.init(core: ContainerCore(table: table), lifecycle: Lifecycle(plan: lifecycle))
    }

    /// Creates every `.eagerSingleton`; returns what failed.
    func createEagerSingletons() -> [GraftError] { core.createEagerSingletons() }

    /// Creates every `.eagerSingleton`, awaiting those that need it; returns what failed.
    func createEagerSingletons() async -> [GraftError] { await core.createEagerSingletons() }

    /// Disposes what a build that failed had already made (eager singletons), ignoring failures:
    /// the build's own error is what the caller reads.
    func discardAfterFailedBuild() {
        _ = core.root.closeCollectingFailures()
    }
}
