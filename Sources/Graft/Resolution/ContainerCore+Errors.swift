/// The checks a resolution makes on the way, and the errors it throws.
extension ContainerCore {
    @inlinable
    func requireNoAwait(_ entry: Entry, _ state: borrowing ResolveState) throws(GraftError) {
        if entry.asyncCause != nil { throw needsAwaitError(entry, inFactoryOf: state.frame) }
    }

    /// Throws when a `.scoped` `entry` is resolved from the root container. Inlined: every
    /// resolve of a `.scoped` service asks, and as a call of its own the question cost four
    /// times the comparison it makes.
    @inline(__always)
    func requireScope(_ entry: Entry, _ state: borrowing ResolveState) throws(GraftError) {
        if state.scope.isRoot { throw scopeRequiredError(entry, state) }
    }

    /// Why `entry`, which is `.scoped`, cannot be resolved from the root container.
    @inline(never)
    private func scopeRequiredError(_ entry: Entry, _ state: borrowing ResolveState) -> GraftError {
        let isScopeValue = entry.kind == .scopeValue
        if state.singleton >= 0 {
            let holder = table.entries[state.singleton]
            return GraftError(
                .captiveDependency,
                "captive dependency: \(holder.key) (\(holder.lifetime)) resolved \(entry.key) (.scoped) while being created",
                service: holder.key.description,
                hints: [
                    Lifetime.Kind.outlives(holder.lifetime, .scoped)
                        + (isScopeValue
                            ? "; \(entry.key.typeName) is a scope value, so make \(holder.key.typeName) .scoped"
                            : "; make \(holder.key.typeName) .scoped, or make \(entry.key.typeName) live as long")
                ]
            )
        }
        if isScopeValue {
            return GraftError(
                .scopedFromRoot,
                "\(entry.key.typeName) is a scope value and cannot be resolved from the root container",
                service: entry.key.description,
                hints: [
                    "each scope is given its own: resolve it from a scope made with "
                        + "container.makeScope(providing: \(entry.key.typeName)(…))"
                ]
            )
        }
        return GraftError(
            .scopedFromRoot,
            "\(entry.key.subject) is .scoped and cannot be resolved from the root container",
            service: entry.key.description,
            hints: ["resolve it from a scope: " + withScopeSpelling(entry), inARequestHandler(entry)]
        )
    }

    /// Where a web handler that asked the container finds the request's scope: the container
    /// cannot tell a handler's resolve from any other, so the hint names both integrations.
    private func inARequestHandler(_ entry: Entry) -> String {
        let name = entry.key.name.map { ", name: \"\($0)\"" } ?? ""
        let resolve = "resolve(\(entry.key.typeName).self\(name))"
        return "in a web request's handler, from the request's scope: try await context.\(resolve) "
            + "with GraftHummingbird, try await req.\(resolve) with GraftVapor"
    }

    /// How to resolve `entry` from a scope, spelled as it compiles: with `await` when the
    /// service needs it, and with its name when it has one.
    private func withScopeSpelling(_ entry: Entry) -> String {
        let name = entry.key.name.map { ", name: \"\($0)\"" } ?? ""
        let resolve = "$0.resolve(\(entry.key.typeName).self\(name))"
        guard entry.asyncCause != nil else { return "try container.withScope { try \(resolve) }" }
        return "try await container.withScope { try await \(resolve) }"
    }

    /// - Parameter frame: The frame of the synchronous factory or hook that resolved `entry`, if
    ///   one did: then the fix is in that registration, not in the caller's spelling.
    @usableFromInline
    func needsAwaitError(_ entry: Entry, inFactoryOf frame: ResolutionFrame? = nil) -> GraftError {
        let causeEntry = entry.asyncCause.map { table.entries[$0] } ?? entry
        let cause = causeEntry.key
        let leased = causeEntry.kind == .lease
        let reason =
            switch (cause == entry.key, leased) {
            case (true, false): "its factory is async"
            case (false, false): "it depends on \(cause), whose factory is async"
            case (true, true): "it is leased from a with-style API, which lends it only to async code"
            case (false, true): "it depends on \(cause), which is leased from a with-style API"
            }
        let name = entry.key.name.map { ", name: \"\($0)\"" } ?? ""
        if let frame {
            let factory = table.entries[frame.entryIndex].key
            return GraftError(
                .needsAwait,
                "\(entry.key.subject) needs await to be created: \(reason)",
                service: entry.key.description,
                hints: [
                    "the synchronous factory (or activation hook) of \(factory) cannot await it: register "
                        + "\(factory.typeName) with an async factory (`{ r async throws in ... try await "
                        + "r.resolve(\(entry.key.typeName).self) }`) or autowire it, so Graft awaits it first"
                ]
            )
        }
        return GraftError(
            .needsAwait,
            "\(entry.key.subject) needs await to be created: \(reason)",
            service: entry.key.description,
            hints: OverloadHints.forWantOfAwait(
                call: "resolve",
                asyncSpelling: "try await resolve(\(entry.key.typeName).self\(name))",
                outsideTask: ["resolve it with `try await resolve(\(entry.key.typeName).self\(name))` from async code"]
            )
        )
    }

    @usableFromInline
    func closedError(_ key: ServiceKey, _ scope: Scope) -> GraftError {
        if scope.isRoot {
            return GraftError(
                .closed,
                "cannot resolve \(key.subject): the container was shut down",
                service: key.description,
                hints: ["resolve before shutdown()"]
            )
        }
        // A scope closed by the container's shutdown (or made while it drains, which is born
        // closed): another scope would be closed as well, so the hint must not suggest one.
        if root.isClosed {
            return GraftError(
                .closed,
                "cannot resolve \(key.subject): its scope was closed because the container was shut down",
                service: key.description,
                hints: ["no scope opens once the container has shut down: resolve before shutdown()"]
            )
        }
        if root.isDraining {
            return GraftError(
                .closed,
                "cannot resolve \(key.subject): its scope was closed because the container is shutting down",
                service: key.description,
                hints: [
                    "no scope opens once shutdown(gracePeriod:) has started: turn the work away "
                        + "(the web integrations answer 503) or finish it before shutting down"
                ]
            )
        }
        return GraftError(
            .closed,
            "cannot resolve \(key.subject): its scope was closed",
            service: key.description,
            hints: ["resolve from an open scope: container.makeScope()"]
        )
    }

    @usableFromInline
    func factoryFailure(_ error: any Error, _ entry: Entry) -> GraftError {
        if let error = error as? GraftError { return error }
        if entry.isObserved { reportFactoryFailure(entry, error) }
        return GraftError(
            .factoryFailed,
            "factory of \(entry.key) threw: \(error)",
            service: entry.key.description,
            hints: ["registered at \(entry.source); the next resolve runs the factory again"],
            underlyingError: error
        )
    }
}
