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

extension ContainerCore {
    /// A new instance of `entry` made with `arguments`, after checking them against its
    /// declared argument types.
    func make<Service: Sendable>(
        _ entry: Entry,
        arguments: RuntimeArguments,
        _ state: inout ResolveState
    ) throws(GraftError) -> Service {
        guard try takesArguments(entry, arguments, state) else { return try make(entry, &state) }
        do {
            try requireNoAwait(entry, state)
            // Only transients take arguments (`build()` checks it), so the instance is new and
            // belongs to the scope of the resolve.
            if _slowPath(entry.isObserved) {
                return try createObserved(entry, &state, disposed: true, arguments: arguments.values) { _ in }
            }
            return try create(entry, &state, disposed: true, arguments: arguments.values)
        } catch {
            throw CycleReport.unwinding(error, through: entry.key)
        }
    }

    /// ``make(_:arguments:_:)``, awaiting what needs it.
    func makeAsync<Service: Sendable>(
        _ entry: Entry,
        arguments: RuntimeArguments,
        _ state: inout ResolveState
    ) async throws(GraftError) -> Service {
        guard try takesArguments(entry, arguments, state) else { return try await makeAsync(entry, &state) }
        do {
            return try await createAsync(entry, &state, disposed: true, arguments: arguments.values)
        } catch {
            throw CycleReport.unwinding(error, through: entry.key)
        }
    }

    /// Whether `entry` is made from `arguments` (after checking them, and that the scope is
    /// open); `false` when neither declares any, so the entry is made as any other.
    private func takesArguments(
        _ entry: Entry,
        _ arguments: RuntimeArguments,
        _ state: borrowing ResolveState
    ) throws(GraftError) -> Bool {
        if entry.arguments.isEmpty && arguments.isEmpty { return false }
        if state.scope.isClosed { throw closedError(entry.key, state.scope) }
        try check(arguments, for: entry)
        return true
    }

    /// The entry registered for `type` and `name`, for a resolve with arguments.
    func argumentTakingEntry(_ type: any Any.Type, name: String?) throws(GraftError) -> Entry {
        guard let entry = table.entry(for: ObjectIdentifier(type), name: name) else {
            throw notRegisteredError(ServiceKey(type, name: name))
        }
        return entry
    }

    private func check(_ arguments: RuntimeArguments, for entry: Entry) throws(GraftError) {
        guard arguments.keys != entry.arguments else { return }
        let given = arguments.keys.typeList
        let type = entry.key.typeName
        if entry.arguments.isEmpty {
            throw GraftError(
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
        throw GraftError(
            .runtimeArguments,
            "\(entry.key.subject) takes runtime arguments \(expected), but was given \(given)",
            service: entry.key.description,
            hints: ["pass exactly these types, in this order: resolve(\(type).self, arguments: …) with \(expected)"]
        )
    }

    func missingArgumentsError(_ entry: Entry) -> GraftError {
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

extension DeferredLink {
    func resolve<Service: Sendable>(_ type: Service.Type, arguments: RuntimeArguments) throws(GraftError) -> Service {
        try origin.resolving(key) { container, state throws(GraftError) in
            try container.make(container.table.entries[target], arguments: arguments, &state)
        }
    }

    func resolveAsync<Service: Sendable>(
        _ type: Service.Type,
        arguments: RuntimeArguments
    ) async throws(GraftError) -> Service {
        try await origin.resolving(key) { container, state async throws(GraftError) in
            try await container.makeAsync(container.table.entries[target], arguments: arguments, &state)
        }
    }
}
