/// Eager singletons: created while the container is built, in registration order.
extension ContainerCore {
    /// Creates every `.eagerSingleton`, shadowed ones too; returns what failed.
    func createEagerSingletons() -> [GraftError] {
        var failures: [GraftError] = []
        for index in table.registrations.indices where table.registrations[index].lifetime.isMadeAtBuild {
            let entry = table.entries[index]
            var state = ResolveState(scope: root)
            do {
                _ = try makeErased(entry, &state)
            } catch {
                failures.append(eagerFailure(entry, error))
            }
        }
        return failures
    }

    /// Creates every `.eagerSingleton`, awaiting those that need it; returns what failed.
    func createEagerSingletons() async -> [GraftError] {
        var failures: [GraftError] = []
        for index in table.registrations.indices where table.registrations[index].lifetime.isMadeAtBuild {
            let entry = table.entries[index]
            var state = ResolveState(scope: root)
            do {
                _ = try await makeErasedAsync(entry, &state)
            } catch {
                failures.append(eagerFailure(entry, error))
            }
        }
        return failures
    }

    private func eagerFailure(_ entry: Entry, _ error: GraftError) -> GraftError {
        GraftError(
            .eagerSingletonFailed,
            "eager singleton \(entry.key) could not be created during build(): \(error.summary)",
            service: entry.key.description,
            path: error.path,
            hints: error.hints,
            underlyingError: error.underlyingError ?? error
        )
    }
}

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
