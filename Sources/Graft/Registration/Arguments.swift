/// Hands an autowired initializer its dependencies, one parameter at a time.
///
/// An autowired registration's factory calls ``next(_:_:)`` once per parameter, in order; each
/// call follows the link `build()` prepared for that parameter, so no key is hashed per edge,
/// and a plain dependency arrives with its type, with no dynamic cast.
@usableFromInline
struct ArgumentCursor {
    // Unretained (`Unmanaged`, `unowned(unsafe)`): a cursor lives only while its entry's
    // factory runs, and the resolve that created it holds both the container and the entry for
    // that whole time.
    @usableFromInline let borrowedContainer: Unmanaged<ContainerCore>
    @usableFromInline unowned(unsafe) let entry: Entry
    /// The entry's plain targets (see ``PlainTargets``), read without touching the entry:
    /// reading a field through an `unowned` reference, or passing one along, costs a retain and
    /// a release on an object every thread resolving this service shares.
    @usableFromInline let plainTargets: UnsafePointer<Unmanaged<Entry>?>?
    /// Values resolved ahead of time by the async path; `nil` when resolving as we go.
    @usableFromInline let prefetched: [(any Sendable)?]?
    @usableFromInline var position = 0

    @usableFromInline
    init(container: ContainerCore, entry: Entry, prefetched: [(any Sendable)?]? = nil) {
        self.borrowedContainer = Unmanaged.passUnretained(container)
        self.entry = entry
        self.plainTargets = prefetched == nil ? UnsafePointer(bitPattern: entry.plainTargetsAddress) : nil
        self.prefetched = prefetched
    }

    /// The next parameter's value.
    @inlinable
    mutating func next<Parameter: Sendable>(
        _ type: Parameter.Type,
        _ state: inout ResolveState
    ) throws(GraftError) -> Parameter {
        let index = position
        position += 1
        if let target = plainTargets?[index] {
            return try ContainerCore.makePlain(borrowedContainer, target, &state, as: Parameter.self)
        }
        // Everything else (prefetched values, `Lazy`, `Provider`, optionals) arrives untyped.
        let container = borrowedContainer.takeUnretainedValue()
        let dependency = entry.dependencies[index]
        let value: (any Sendable)?
        if let prefetched {
            value = prefetched[index]
        } else {
            value = try container.argument(index, of: entry, &state)
        }
        guard let value else {
            return try container.absent(type, dependency.key)
        }
        return try container.cast(value, to: type, dependency.key)
    }
}

extension ContainerCore {
    /// The instance of a plain dependency, borrowing the container and the entry instead of
    /// retaining them.
    @inlinable
    static func makePlain<Parameter: Sendable>(
        _ container: Unmanaged<ContainerCore>,
        _ target: Unmanaged<Entry>,
        _ state: inout ResolveState,
        as type: Parameter.Type
    ) throws(GraftError) -> Parameter {
        // The borrowing closures rethrow untyped errors, and their value cannot come back in
        // an optional or a `Result`: this code is not specialized, so such a generic type would
        // be looked up at run time on every call. The value comes back as it is, and an error,
        // always a `GraftError`, is unboxed on the way out.
        do {
            return try container._withUnsafeGuaranteedRef { container in
                try target._withUnsafeGuaranteedRef { entry in
                    try entry.maker.make(container, entry, &state, as: Parameter.self)
                }
            }
        } catch {
            throw GraftError.wrapping(error)
        }
    }

    /// The value for parameter `index` of `entry`, untyped: resolved now, a `Lazy`/`Provider`,
    /// or `nil` for an unregistered optional.
    @usableFromInline
    func argument(_ index: Int, of entry: Entry, _ state: inout ResolveState) throws(GraftError) -> (any Sendable)? {
        let dependency = entry.dependencies[index]
        let link = entry.links[index]
        if let wrap = dependency.wrapper {
            return wrap(DeferredLink(container: self, scope: state.scope, target: link, key: dependency.key))
        }
        guard link >= 0 else { return nil }
        let target = table.entries[link]
        return try target.maker.makeErased(self, target, &state)
    }

    /// The typed `nil` an unregistered optional dependency receives.
    @usableFromInline
    func absent<Value>(_ type: Value.Type, _ key: ServiceKey) throws(GraftError) -> Value {
        guard let none = absentValue(of: type) else { throw notRegisteredError(key) }
        return none
    }

    @usableFromInline
    func cast<Service>(_ value: any Sendable, to type: Service.Type, _ key: ServiceKey) throws(GraftError) -> Service {
        guard let service = value as? Service else {
            throw GraftError(
                .typeMismatch,
                "\(key) produced a \(Swift.type(of: value)), which is not a \(Service.self)",
                service: key.description
            )
        }
        return service
    }

    /// Answers a request for a type nobody registers: `Lazy`, `Provider` and `Optional` of a
    /// registered type work without their own registration; anything else is an error.
    @usableFromInline
    func resolveUnregistered<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        _ state: inout ResolveState
    ) throws(GraftError) -> Service {
        let key = ServiceKey(type, name: name)
        guard name == nil, let wrapping = Service.self as? any WrappedDependency.Type else {
            throw notRegisteredError(key)
        }
        let dependency = wrapping.dependency
        let entry = table.entry(for: dependency.key.id, name: nil)
        switch (dependency.wrapper, entry) {
        case (let wrap?, let entry?):
            let link = DeferredLink(container: self, scope: state.scope, target: entry.index, key: dependency.key)
            return try cast(wrap(link), to: type, key)
        case (nil, let entry?):
            return try cast(try entry.maker.makeErased(self, entry, &state), to: type, key)
        case (nil, nil):
            return try absent(type, key)
        case (_?, nil):
            throw notRegisteredError(dependency.key)
        }
    }

    @usableFromInline
    func notRegisteredError(_ key: ServiceKey) -> GraftError {
        GraftError(
            .notRegistered,
            "no registration for \(key.subject)",
            service: key.description,
            path: [key.description],
            hints: Suggestions.hints(for: key, among: table.registrations.map(\.key))
        )
    }
}

/// What a `Lazy` or `Provider` needs to resolve its service later: the entry, and the container
/// and scope it was injected from, held weakly so the holder never keeps a container alive.
@usableFromInline
struct DeferredLink: Sendable {
    let origin: ResolutionOrigin
    @usableFromInline let target: Int
    @usableFromInline let key: ServiceKey

    init(container: ContainerCore, scope: ScopeCore, target: Int, key: ServiceKey) {
        self.origin = ResolutionOrigin(container: container, scope: scope)
        self.target = target
        self.key = key
    }

    /// The coordinator of the container the link came from, which makes a `Lazy` value once.
    func coordinator() throws(GraftError) -> CreationCoordinator {
        try origin.resolvable(key).0.coordinator
    }

    func resolve<Service: Sendable>(_ type: Service.Type) throws(GraftError) -> Service {
        let (container, scope) = try origin.resolvable(key)
        var state = ResolveState(scope: scope)
        return try container.make(container.table.entries[target], &state)
    }

    func resolveAsync<Service: Sendable>(_ type: Service.Type) async throws(GraftError) -> Service {
        let (container, scope) = try origin.resolvable(key)
        var state = ResolveState(scope: scope)
        return try await container.makeAsync(container.table.entries[target], &state)
    }
}
