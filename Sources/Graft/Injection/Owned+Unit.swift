/// How an ``Owned`` unit is opened, plugged into the engine through the hooks it declares: an
/// adapter registration that linking adds wherever `Owned<T>` is asked for (a parameter, or the
/// service inside a `Provider`, `Lazy` or `Optional`), and a type that resolves itself for a
/// direct `resolve(Owned<T>.self)` that no registration asks for.
extension Owned {
    /// Opens a unit under the scope `link` was made in, and resolves `Value`, the target of
    /// `link`, there: with `arguments` when `Value` takes runtime arguments (a
    /// `Factory<Owned<Value>, …>` passes them through).
    ///
    /// - Throws: ``GraftError/Code/closed`` when the scope it would open under is closed or the
    ///   container is gone, or what resolving `Value` throws; the unit's scope is then closed,
    ///   disposing what was made for it.
    static func open(_ link: DeferredLink, arguments: RuntimeArguments? = nil) throws(GraftError) -> Owned {
        let (container, parent) = try link.origin.resolvable(link.key)
        let scope = Scope(container: container, parent: parent)
        do {
            let inUnit = DeferredLink(container: container, scope: scope, target: link.target, key: link.key)
            if let arguments {
                return Owned(try inUnit.resolve(Value.self, arguments: arguments), in: scope)
            }
            return Owned(try inUnit.resolve(Value.self), in: scope)
        } catch {
            scope.markFailed()
            report(scope.closeCollectingFailures(), to: container)
            throw error
        }
    }

    /// ``open(_:)``, awaiting what `Value` needs.
    static func open(_ link: DeferredLink, arguments: RuntimeArguments? = nil) async throws(GraftError) -> Owned {
        let (container, parent) = try link.origin.resolvable(link.key)
        let scope = Scope(container: container, parent: parent)
        do {
            let inUnit = DeferredLink(container: container, scope: scope, target: link.target, key: link.key)
            if let arguments {
                return Owned(try await inUnit.resolveAsync(Value.self, arguments: arguments), in: scope)
            }
            return Owned(try await inUnit.resolveAsync(Value.self), in: scope)
        } catch {
            scope.markFailed()
            report(await scope.closeAwaitingDisposals(), to: container)
            throw error
        }
    }

    /// Disposals that failed while closing a unit whose `Value` could not be made: the error
    /// thrown is the creation's, so these go to the container's problem reporter.
    private static func report(_ failures: [GraftError], to container: ContainerCore) {
        guard let error = Scope.failure(failures, closing: "the unit of work \(ServiceKey(Owned.self))") else { return }
        container.table.problemReporter(error)
    }

    /// The link to `Value` in the scope the unit is resolved from, for `open`.
    private static func link(
        in container: ContainerCore,
        _ state: borrowing ResolveState
    ) throws(GraftError) -> DeferredLink {
        let key = ServiceKey(Value.self)
        guard let entry = container.table.entry(for: key.id, name: nil) else {
            throw ResolutionErrors.notRegistered(key, in: container.table)
        }
        return DeferredLink(container: container, scope: state.scope, target: entry.index, key: key)
    }
}

/// The adapter linking adds for `Owned<T>`: a transient whose one dependency is `T`, handed over
/// as a link (``UnitLink``) from the scope the unit is resolved in, so that the engine never
/// makes `T` there; `build()` sees the edge to `T` like any adapter's, so it checks `T`'s
/// graph (missing dependencies, cycles, `await`) but not as a captive of the holder.
extension Owned: AdaptedDependency {
    static var itemType: ObjectIdentifier { ObjectIdentifier(Value.self) }

    static var adapterNote: String { "unit of work" }

    static var opensScope: Bool { true }

    static func itemHint(_ item: ServiceKey, heldBy holder: ServiceKey) -> String {
        "each \(ServiceKey(Owned.self).typeName) that \(holder) asks for resolves \(item) in a scope of its own"
    }

    /// The adapter takes the runtime arguments `Value`'s registration declares, as its own: a
    /// `Factory<Owned<Value>, …>` passes them, and the unit resolves `Value` with them.
    static func adapter(among registrations: [Registration], source: SourceLocation) -> Registration {
        let arguments = forwardedArguments(among: registrations)
        let keys = arguments.map(\.key)
        return Registration(
            adapter: Owned.self,
            dependencies: [DeclaredDependency(parameter: UnitLink<Value>.self)] + arguments,
            source: source,
            make: { (construction) throws(GraftError) -> Owned in
                try open(construction.next(UnitLink<Value>.self).link, arguments: passed(construction, as: keys))
            },
            makeAsync: { (construction) async throws(GraftError) -> Owned in
                try await open(construction.next(UnitLink<Value>.self).link, arguments: passed(construction, as: keys))
            }
        )
    }

    /// The runtime arguments the adapter was made with, to pass on as `keys`; `nil` for none.
    private static func passed(_ construction: borrowing Construction, as keys: [ServiceKey]) -> RuntimeArguments? {
        guard !keys.isEmpty, let values = construction.arguments else { return nil }
        return RuntimeArguments(values: values, keys: keys)
    }

    /// The runtime arguments of the registration that answers for `Value` (the last one, as
    /// linking picks), in order; none for most.
    private static func forwardedArguments(among registrations: [Registration]) -> [DeclaredDependency] {
        let id = ObjectIdentifier(Value.self)
        guard let winner = registrations.lastIndex(where: { $0.key.id == id && $0.key.name == nil }) else { return [] }
        return registrations[winner].dependencies.filter(\.isArgument)
    }
}

/// `resolve(Owned<T>.self)` where no registration asks for `Owned<T>`, so linking added no
/// adapter for it: the unit is opened under the scope of the resolve.
extension Owned: GatheredCollection {
    static func gather(from core: ContainerCore, _ state: inout ResolveState) throws(GraftError) -> any Sendable {
        try open(link(in: core, state))
    }

    static func gatherAsync(
        from core: ContainerCore,
        _ state: inout ResolveState
    ) async throws(GraftError) -> any Sendable {
        try await open(link(in: core, state))
    }
}

/// The service inside an `Owned`, as the adapter's dependency: a link from the scope the unit is
/// resolved in, which the engine hands over without making the service.
struct UnitLink<Value: Sendable>: Sendable {
    let link: DeferredLink

    init(_ link: DeferredLink) {
        self.link = link
    }
}

extension UnitLink: DeferredForm {
    static var dependency: Dependency {
        Dependency(key: ServiceKey(Value.self), kind: .deferred)
    }
}
