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
