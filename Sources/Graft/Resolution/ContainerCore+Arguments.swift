/// Autowired parameters: the engine's side of a ``Construction``.
///
/// Each call follows the link `build()` prepared for that parameter, so no key is hashed per
/// edge, and a plain dependency arrives with its type, with no dynamic cast.
extension ContainerCore {
    /// Called once per autowired parameter, from ``parameter(_:of:)``, which does nothing else.
    @inline(__always)
    func resolveParameter<Parameter: Sendable>(
        _ type: Parameter.Type,
        of construction: inout Construction
    ) throws(GraftError) -> Parameter {
        let index = construction.position
        if let prefetched = construction.prefetched {
            return try typed(prefetched[index], as: type, construction.node, index)
        }
        // The request is the `ResolveState` of the resolve that runs this construction (see
        // `construct`), lent for exactly as long as the construction runs.
        if let target = construction.plainLink(at: index), target >= 0 {
            return try construction.withRequest(as: ResolveState.self) { (state) throws(GraftError) -> Parameter in
                try makePlain(table.entry(at: target), &state, as: type)
            }
        }
        let entry = table.entries[construction.node]
        let dependency = entry.dependencies[index]
        if dependency.kind == .argument {
            return try construction.argument(dependency.argument, as: type)
        }
        // Everything else (`Lazy`, `Provider`, `Factory`, optionals) arrives untyped.
        let node = construction.node
        return try construction.withRequest(as: ResolveState.self) { (state) throws(GraftError) -> Parameter in
            try typed(try argument(index, of: entry, &state), as: type, node, index)
        }
    }

    func adoptDelivered(_ disposal: Disposal, for construction: borrowing Construction) throws(GraftError) {
        // The owner is always a `Scope`: `construct` is the only place that sets it.
        guard let owner = construction.owner(as: Scope.self) else { return }
        let entry = table.entries[construction.node]
        try adopt(observed(DisposalRecord(disposal, key: entry.key), entry), by: owner)
    }

    /// Hands `record` to `owner`; when `owner` has closed meanwhile, disposes it now (if that
    /// needs no `await`) and throws.
    func adopt(_ record: DisposalRecord, by owner: Scope) throws(GraftError) {
        if !owner.adopt(record) {
            if case .sync(let disposable, _) = record { try? disposable.dispose() }
            throw closedError(record.key, owner)
        }
    }

    /// `value`, an untyped argument, as the parameter's type; `nil` is an unregistered optional.
    private func typed<Parameter: Sendable>(
        _ value: (any Sendable)?,
        as type: Parameter.Type,
        _ node: Int,
        _ index: Int
    ) throws(GraftError) -> Parameter {
        let key = table.entries[node].dependencies[index].key
        guard let value else { return try absent(type, key) }
        return try cast(value, to: type, key)
    }

    /// The instance of a plain dependency, borrowing the entry instead of retaining it (the
    /// container is `self`, which the caller already lends).
    @inline(__always)
    func makePlain<Parameter: Sendable>(
        _ target: Unretained<Entry>,
        _ state: inout ResolveState,
        as type: Parameter.Type
    ) throws(GraftError) -> Parameter {
        // The borrowing closure rethrows untyped errors, and its value cannot come back in an
        // optional or a `Result`: this code is not specialized, so such a generic type would be
        // looked up at run time on every call. The value comes back as it is, and an error,
        // always a `GraftError`, is unboxed on the way out.
        do {
            return try target.with { entry in try make(entry, &state) as Parameter }
        } catch {
            throw GraftError.wrapping(error)
        }
    }

    /// The value for parameter `index` of `entry`, untyped: resolved now, a `Lazy`/`Provider`,
    /// or `nil` for an unregistered optional.
    @usableFromInline
    func argument(_ index: Int, of entry: Entry, _ state: inout ResolveState) throws(GraftError) -> (any Sendable)? {
        let link = entry.links[index]
        if let form = entry.deferredForms[index] {
            return form.init(
                DeferredLink(container: self, scope: state.scope, target: link, key: entry.dependencies[index].key)
            )
        }
        guard link >= 0 else { return nil }
        return try makeErased(table.entries[link], &state)
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
        // A child asks its parent for what it registers under no form.
        if let parent = table.parent, !table.answersWrapped(type, name: name) {
            return try parent.resolve(type, name: name, from: state.scope, of: self)
        }
        let key = ServiceKey(type, name: name)
        if name == nil, let collection = Service.self as? any GatheredCollection.Type {
            return try cast(try collection.gather(from: self, &state), to: type, key)
        }
        guard name == nil, let wrapping = Service.self as? any WrappedDependency.Type else {
            throw notRegisteredError(key)
        }
        let dependency = wrapping.dependency
        let entry = table.entry(for: dependency.key.id, name: nil)
        switch (wrapping as? any DeferredForm.Type, entry) {
        case (let form?, let entry?):
            let link = DeferredLink(container: self, scope: state.scope, target: entry.index, key: dependency.key)
            return try cast(form.init(link), to: type, key)
        case (nil, let entry?):
            return try cast(try makeErased(entry, &state), to: type, key)
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

    init(container: ContainerCore, scope: Scope, target: Int, key: ServiceKey) {
        self.origin = ResolutionOrigin(container: container, scope: scope)
        self.target = target
        self.key = key
    }

    /// The coordinator of the container the link came from, which makes a `Lazy` value once.
    func coordinator() throws(GraftError) -> CreationCoordinator {
        let (container, scope) = try origin.resolvable(key)
        return container.coordinator(of: scope)
    }

    func resolve<Service: Sendable>(_ type: Service.Type) throws(GraftError) -> Service {
        try origin.resolving(key) { container, state throws(GraftError) in
            try container.make(container.table.entries[target], &state)
        }
    }

    func resolveAsync<Service: Sendable>(_ type: Service.Type) async throws(GraftError) -> Service {
        try await origin.resolving(key) { container, state async throws(GraftError) in
            try await container.makeAsync(container.table.entries[target], &state)
        }
    }
}
