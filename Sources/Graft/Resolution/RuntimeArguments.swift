/// The runtime arguments one resolve passes: each value with the type the caller passed it as.
///
/// The types are compared with the registration's declared argument types before anything is
/// created, so a construction reads each argument back as exactly the type it expects.
@usableFromInline
struct RuntimeArguments: Sendable {
    let values: [any Sendable]
    let keys: [ServiceKey]

    @usableFromInline
    init<each Argument: Sendable>(_ arguments: repeat each Argument) {
        var values: [any Sendable] = []
        var keys: [ServiceKey] = []
        for argument in repeat each arguments {
            values.append(argument)
            keys.append(ServiceKey(type(of: argument)))
        }
        self.values = values
        self.keys = keys
    }

    /// Arguments passed on as they were received: `values`, checked against `keys` already.
    init(values: [any Sendable], keys: [ServiceKey]) {
        self.values = values
        self.keys = keys
    }

    var isEmpty: Bool { values.isEmpty }
}

/// Making a service from runtime arguments: checked against the registration's declared types,
/// then a new transient made with them (only transients take arguments; `build()` checks it).
extension RuntimeArguments {
    /// A new instance of `entry`, made by `core` with these arguments after checking them
    /// against its declared argument types.
    func make<Service: Sendable>(
        _ entry: Entry,
        by core: ContainerCore,
        _ state: inout ResolveState
    ) throws(GraftError) -> Service {
        guard try suit(entry, core, state) else { return try core.make(entry, &state) }
        do {
            try entry.requireNoAwait(state, in: core.table)
            // Only transients take arguments (`build()` checks it), so the instance is new and
            // belongs to the scope of the resolve.
            if _slowPath(entry.isObserved) {
                return try core.createObserved(entry, &state, disposed: true, arguments: values) { _ in }
            }
            return try core.create(entry, &state, disposed: true, arguments: values)
        } catch {
            throw CycleReport.unwinding(error, through: entry.key)
        }
    }

    /// ``make(_:by:_:)``, awaiting what needs it.
    func makeAsync<Service: Sendable>(
        _ entry: Entry,
        by core: ContainerCore,
        _ state: inout ResolveState
    ) async throws(GraftError) -> Service {
        guard try suit(entry, core, state) else { return try await core.makeAsync(entry, &state) }
        do {
            return try await core.createAsync(entry, &state, disposed: true, arguments: values)
        } catch {
            throw CycleReport.unwinding(error, through: entry.key)
        }
    }

    /// Whether `entry` is made from these arguments (after checking them, and that the scope is
    /// open); `false` when neither declares any, so the entry is made as any other.
    private func suit(_ entry: Entry, _ core: ContainerCore, _ state: borrowing ResolveState) throws(GraftError) -> Bool
    {
        if entry.arguments.isEmpty && isEmpty { return false }
        if state.scope.isClosed { throw core.closedError(entry.key, state.scope) }
        guard keys == entry.arguments else { throw ResolutionErrors.wrongArguments(self, for: entry) }
        return true
    }

    /// The entry `core` registers for `type` and `name`, for a resolve with arguments.
    static func entry(for type: any Any.Type, name: String?, in core: ContainerCore) throws(GraftError) -> Entry {
        guard let entry = core.table.entry(for: ObjectIdentifier(type), name: name) else {
            throw ResolutionErrors.notRegistered(ServiceKey(type, name: name), in: core.table)
        }
        return entry
    }
}

extension DeferredLink {
    func resolve<Service: Sendable>(_ type: Service.Type, arguments: RuntimeArguments) throws(GraftError) -> Service {
        try origin.resolving(key) { container, state throws(GraftError) in
            try arguments.make(container.table.entries[target], by: container, &state)
        }
    }

    func resolveAsync<Service: Sendable>(
        _ type: Service.Type,
        arguments: RuntimeArguments
    ) async throws(GraftError) -> Service {
        try await origin.resolving(key) { container, state async throws(GraftError) in
            try await arguments.makeAsync(container.table.entries[target], by: container, &state)
        }
    }
}
