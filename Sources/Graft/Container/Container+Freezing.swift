/// Freezing: the container `build()` returns, made from a validated graph, and its eager singletons.
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

    /// Creates every `.eagerSingleton`, shadowed ones too, in registration order; returns what
    /// failed.
    func createEagerSingletons() -> [GraftError] {
        var failures: [GraftError] = []
        for entry in eagerEntries {
            var state = ResolveState(scope: core.root)
            do {
                _ = try core.makeErased(entry, &state)
            } catch {
                failures.append(Self.eagerFailure(entry, error))
            }
        }
        return failures
    }

    /// Creates every `.eagerSingleton`, awaiting those that need it; returns what failed.
    func createEagerSingletons() async -> [GraftError] {
        var failures: [GraftError] = []
        for entry in eagerEntries {
            var state = ResolveState(scope: core.root)
            do {
                _ = try await core.makeErasedAsync(entry, &state)
            } catch {
                failures.append(Self.eagerFailure(entry, error))
            }
        }
        return failures
    }

    /// The `.eagerSingleton` entries, shadowed ones too, in registration order.
    private var eagerEntries: [Entry] {
        let table = core.table
        return table.registrations.indices.filter { table.registrations[$0].lifetime.isMadeAtBuild }.map {
            table.entries[$0]
        }
    }

    private static func eagerFailure(_ entry: Entry, _ error: GraftError) -> GraftError {
        GraftError(
            .eagerSingletonFailed,
            "eager singleton \(entry.key) could not be created during build(): \(error.summary)",
            service: entry.key.description,
            path: error.path,
            hints: error.hints,
            underlyingError: error.underlyingError ?? error
        )
    }

    /// Disposes what a build that failed had already made (eager singletons), ignoring failures:
    /// the build's own error is what the caller reads.
    func discardAfterFailedBuild() {
        _ = core.root.closeCollectingFailures()
    }
}
