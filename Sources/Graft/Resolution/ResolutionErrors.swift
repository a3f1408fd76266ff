/// The wording of what a resolution throws: each error given what it names, so the engine's
/// resolve path keeps only the checks and hands the words to this one place.
///
/// Every function here runs only on the way to a throw, so none is inlined into the resolve path.
enum ResolutionErrors {
    /// Why `entry`, which is `.scoped`, cannot be resolved from the root container.
    @inline(never)
    static func scopeRequired(
        _ entry: Entry,
        _ state: borrowing ResolveState,
        in table: RegistrationTable
    ) -> GraftError {
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
    private static func inARequestHandler(_ entry: Entry) -> String {
        let name = entry.key.name.map { ", name: \"\($0)\"" } ?? ""
        let resolve = "resolve(\(entry.key.typeName).self\(name))"
        return "in a web request's handler, from the request's scope: try await context.\(resolve) "
            + "with GraftHummingbird, try await req.\(resolve) with GraftVapor"
    }

    /// How to resolve `entry` from a scope, spelled as it compiles: with `await` when the
    /// service needs it, and with its name when it has one.
    private static func withScopeSpelling(_ entry: Entry) -> String {
        let name = entry.key.name.map { ", name: \"\($0)\"" } ?? ""
        let resolve = "$0.resolve(\(entry.key.typeName).self\(name))"
        guard entry.asyncCause != nil else { return "try container.withScope { try \(resolve) }" }
        return "try await container.withScope { try await \(resolve) }"
    }

    /// Why `entry`, a `.scoped(in:)` entry, cannot be resolved under `state`, where no enclosing
    /// scope carries `tag`.
    @inline(never)
    static func noTaggedScope(
        _ entry: Entry,
        _ tag: ScopeTagID,
        _ state: borrowing ResolveState,
        in table: RegistrationTable,
        awaiting: Bool
    ) -> GraftError {
        let lifetime = Lifetime.scopedInTag(tag)
        if state.scope.isRoot, state.singleton >= 0 {
            let holder = table.entries[state.singleton]
            return GraftError(
                .captiveDependency,
                "captive dependency: \(holder.key) (\(holder.lifetime)) resolved \(entry.key) (\(lifetime)) "
                    + "while being created",
                service: holder.key.description,
                hints: [
                    Lifetime.Kind.outlives(holder.lifetime, holder.lifetime.description, lifetime.description)
                        + "; make \(holder.key.typeName) \(lifetime), or make \(entry.key.typeName) live as long"
                ]
            )
        }
        let summary =
            state.scope.isRoot
            ? "\(entry.key.subject) is \(lifetime) and cannot be resolved from the root container"
            : "\(entry.key.subject) is \(lifetime), but neither its scope nor any scope it was made under "
                + "is tagged \(tag)"
        var hints = [
            "make the scopes that resolve it under a \(tag) scope: let scope = container.makeScope(tagged: "
                + "\(tag).self), then scope.makeScope() for each unit of work under it",
            "or resolve it within one: " + withTaggedScopeSpelling(entry, tag, awaiting: awaiting),
        ]
        let others = state.scope.enclosingTags
        if !others.isEmpty {
            hints.append(
                "the scopes it was resolved in are tagged \(others.map(\.description).joined(separator: ", ")); "
                    + "a \(tag) scope must enclose them, not the other way round"
            )
        }
        return GraftError(.noTaggedScope, summary, service: entry.key.description, hints: hints)
    }

    /// How to resolve `entry` within a scope tagged `tag`, spelled as it compiles where the
    /// failed resolve was written: with `await` when the service needs it or that resolve awaits
    /// (a synchronous resolve inside a task is synchronous code, which the synchronous form suits).
    private static func withTaggedScopeSpelling(_ entry: Entry, _ tag: ScopeTagID, awaiting: Bool) -> String {
        let name = entry.key.name.map { ", name: \"\($0)\"" } ?? ""
        let resolve = "$0.resolve(\(entry.key.typeName).self\(name))"
        guard entry.asyncCause != nil || awaiting else {
            return "try container.withScope(tagged: \(tag).self) { try \(resolve) }"
        }
        return "try await container.withScope(tagged: \(tag).self) { try await \(resolve) }"
    }

    /// - Parameter frame: The frame of the synchronous factory or hook that resolved `entry`, if
    ///   one did: then the fix is in that registration, not in the caller's spelling.
    @inline(never)
    static func needsAwait(
        _ entry: Entry,
        in table: RegistrationTable,
        inFactoryOf frame: ResolutionFrame? = nil
    ) -> GraftError {
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
        let summary = "\(entry.key.subject) needs await to be created: \(reason)"
        if let frame {
            let factory = table.entries[frame.entryIndex].key
            return GraftError(
                .needsAwait,
                summary,
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
            summary,
            service: entry.key.description,
            hints: OverloadHints.forWantOfAwait(
                call: "resolve",
                asyncSpelling: "try await resolve(\(entry.key.typeName).self\(name))",
                outsideTask: ["resolve it with `try await resolve(\(entry.key.typeName).self\(name))` from async code"]
            )
        )
    }

    /// Why `key` cannot be resolved in `scope`, which is closed; `root` is its container's root.
    @inline(never)
    static func closed(_ key: ServiceKey, _ scope: Scope, root: Scope) -> GraftError {
        let (summary, hint): (String, String)
        if scope.isRoot {
            (summary, hint) = ("the container was shut down", "resolve before shutdown()")
        } else if root.isClosed {
            // A scope closed by the container's shutdown (or made while it drains, which is born
            // closed): another scope would be closed as well, so the hint must not suggest one.
            (summary, hint) = (
                "its scope was closed because the container was shut down",
                "no scope opens once the container has shut down: resolve before shutdown()"
            )
        } else if root.isDraining {
            (summary, hint) = (
                "its scope was closed because the container is shutting down",
                "no scope opens once shutdown(gracePeriod:) has started: turn the work away "
                    + "(the web integrations answer 503) or finish it before shutting down"
            )
        } else {
            (summary, hint) = ("its scope was closed", "resolve from an open scope: container.makeScope()")
        }
        return GraftError(
            .closed,
            "cannot resolve \(key.subject): \(summary)",
            service: key.description,
            hints: [hint]
        )
    }

    /// What `entry`'s factory throwing `error` becomes; the observers of `table` are told of a
    /// failure of the factory itself.
    @inline(never)
    static func factoryFailure(_ error: any Error, _ entry: Entry, in table: RegistrationTable) -> GraftError {
        if let error = error as? GraftError { return error }
        if entry.isObserved { Observers.reportFactoryFailure(entry, error, in: table) }
        return GraftError(
            .factoryFailed,
            "factory of \(entry.key) threw: \(error)",
            service: entry.key.description,
            hints: ["registered at \(entry.source); the next resolve runs the factory again"],
            underlyingError: error
        )
    }

    /// What an activation hook of `entry` throwing `error` becomes.
    @inline(never)
    static func activationFailure(_ error: any Error, _ role: String, _ entry: Entry) -> GraftError {
        if let error = error as? GraftError { return error }
        return GraftError(
            .activationFailed,
            "\(role) of \(entry.key) threw: \(error)",
            service: entry.key.description,
            hints: ["the hook was added at \(entry.source)"],
            underlyingError: error
        )
    }

    @inline(never)
    static func notRegistered(_ key: ServiceKey, in table: RegistrationTable) -> GraftError {
        GraftError(
            .notRegistered,
            "no registration for \(key.subject)",
            service: key.description,
            path: [key.description],
            hints: Suggestions.hints(for: key, among: table.registrations.map(\.key))
        )
    }

    @inline(never)
    static func typeMismatch(_ value: any Sendable, _ type: Any.Type, _ key: ServiceKey) -> GraftError {
        GraftError(
            .typeMismatch,
            "\(key) produced a \(Swift.type(of: value)), which is not a \(type)",
            service: key.description
        )
    }

    @inline(never)
    static func weakNeedsClass(_ value: any Sendable, _ entry: Entry) -> GraftError {
        GraftError(
            .weakNeedsClass,
            "\(entry.key) is .weak but its factory made a \(type(of: value)), which is not a class",
            service: entry.key.description,
            hints: ["only class instances can be held weakly; use .transient or .singleton for values"]
        )
    }

    /// Why `arguments` do not suit `entry`, whose declared argument types differ.
    @inline(never)
    static func wrongArguments(_ arguments: RuntimeArguments, for entry: Entry) -> GraftError {
        let given = arguments.keys.typeList
        let type = entry.key.typeName
        if entry.arguments.isEmpty {
            return GraftError(
                .runtimeArguments,
                "\(entry.key.subject) takes no runtime arguments, but was given \(given)",
                service: entry.key.description,
                hints: [
                    "resolve it without arguments: resolve(\(type).self), or declare them where it is "
                        + "registered (\(entry.source)): register(\(type).self, arguments: …)"
                ]
            )
        }
        let expected = entry.arguments.typeList
        return GraftError(
            .runtimeArguments,
            "\(entry.key.subject) takes runtime arguments \(expected), but was given \(given)",
            service: entry.key.description,
            hints: ["pass exactly these types, in this order: resolve(\(type).self, arguments: …) with \(expected)"]
        )
    }

    @inline(never)
    static func missingArguments(_ entry: Entry) -> GraftError {
        let type = entry.key.typeName
        let expected = entry.arguments.typeList
        let factory = "Factory<\(([type] + entry.arguments.map(\.typeName)).joined(separator: ", "))>"
        return GraftError(
            .runtimeArguments,
            "\(entry.key.subject) takes runtime arguments \(expected), and this resolve passed none",
            service: entry.key.description,
            hints: ["pass them: resolve(\(type).self, arguments: …), or inject \(factory) and call make(…)"]
        )
    }
}
