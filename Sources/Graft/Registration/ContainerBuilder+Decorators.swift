// The sync and async `onDispose` pair is not ambiguous: Swift picks the async one only for an
// async closure.
// swift-format-ignore-file: AmbiguousTrailingClosureOverload

/// Decorators and dispose closures: behaviour added to the instances of registrations made
/// elsewhere, without changing the types.
extension ContainerBuilder {
    /// Wraps every new instance of `type` — logging, caching, metrics — after it is made and its
    /// activation hooks ran.
    ///
    /// ```swift
    /// builder.register((any Engine).self, lifetime: .singleton) { _ in RCEngine() }
    /// builder.decorate((any Engine).self) { engine, r in
    ///     TimedEngine(wrapping: engine, clock: try r.resolve(LapClock.self))
    /// }
    /// ```
    ///
    /// Several decorators apply in the order they were added, each to what the one before it
    /// returned. A decorator applies to every registration of `type`, named or not — including
    /// those registered after it and those `resolveAll` returns — unless `name` picks one. The
    /// decorated instance is what is shared (for a `.singleton`, decorated once) and shown as
    /// `decorated` in the graph export. The resolver it receives resolves within the same
    /// resolution, so cycles through it are found. Disposal still follows the instance the
    /// factory made.
    ///
    /// - Parameters:
    ///   - type: The registered type whose instances are wrapped.
    ///   - name: Only the registration of this name; `nil` for every registration of `type`.
    ///   - decorator: Receives an instance and a resolver, and returns the instance to hand out.
    public mutating func decorate<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        _ decorator: @escaping @Sendable (Service, any Resolver) throws -> Service
    ) {
        decorators.append(
            Decorator(type: ObjectIdentifier(type), name: name) {
                Activation(.decorator) { value, resolver in
                    guard let service = value as? Service else { return }
                    value = try decorator(service, resolver)
                }
            }
        )
    }

    /// Gives the latest registration of `type` and `name` a closure that disposes each instance
    /// it makes: for a domain type, or a type from another package, that does not conform to
    /// ``Disposable``.
    ///
    /// ```swift
    /// builder.register(ConnectionPool.self, lifetime: .singleton) { _ in ConnectionPool(size: 8) }
    /// builder.onDispose(ConnectionPool.self) { pool in pool.drain() }
    /// ```
    ///
    /// The rules are `Disposable`'s: the owner (the scope, or the container for singletons)
    /// disposes each instance exactly once, newest first; a closure that throws does not stop
    /// the others. `.weak` and `instance:` registrations are never disposed. A later `onDispose`
    /// for the same registration replaces an earlier one.
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The registration's name.
    ///   - fileID: Where the closure is added, for messages; leave the default.
    ///   - line: Where the closure is added, for messages; leave the default.
    ///   - dispose: Releases one instance.
    public mutating func onDispose<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        _ dispose: @escaping @Sendable (Service) throws -> Void
    ) {
        addDisposer(type, name, fileID, line, .sync { value in try (value as? Service).map(dispose) })
    }

    /// Gives the latest registration of `type` and `name` an `async` closure that disposes each
    /// instance it makes; the owner awaits it when closed with `try await close()` or
    /// `try await shutdown()`.
    ///
    /// ```swift
    /// builder.onDispose(DatabasePool.self) { pool async throws in try await pool.close() }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The registration's name.
    ///   - fileID: Where the closure is added, for messages; leave the default.
    ///   - line: Where the closure is added, for messages; leave the default.
    ///   - dispose: Releases one instance, awaiting what it needs.
    public mutating func onDispose<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        _ dispose: @escaping @Sendable (Service) async throws -> Void
    ) {
        addDisposer(
            type,
            name,
            fileID,
            line,
            .async { value in
                if let service = value as? Service { try await dispose(service) }
            }
        )
    }

    private mutating func addDisposer<Service: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ fileID: String,
        _ line: Int,
        _ disposer: Disposer
    ) {
        addHook(
            to: ServiceKey(type, name: name),
            "onDispose",
            "dispose closure",
            fileID,
            line,
            Activation(disposer: disposer)
        )
    }

    /// The registrations with every decorator added to those it applies to, after their own
    /// hooks and in the order the decorators were added.
    func decoratedRegistrations() -> [Registration] {
        guard !decorators.isEmpty else { return registrations }
        var byType: [ObjectIdentifier: [Decorator]] = [:]
        for decorator in decorators {
            byType[decorator.type, default: []].append(decorator)
        }
        var decorated = registrations
        for index in decorated.indices {
            guard let candidates = byType[decorated[index].key.id] else { continue }
            for decorator in candidates where decorator.name == nil || decorator.name == decorated[index].key.name {
                decorated[index].add(decorator.makeActivation())
            }
        }
        return decorated
    }
}

/// A decorator as the builder keeps it until linking adds it to the registrations it applies to.
struct Decorator: Sendable {
    let type: ObjectIdentifier
    /// Only the registration of this name; `nil` for all of the type's.
    let name: String?
    let makeActivation: @Sendable () -> Activation
}
