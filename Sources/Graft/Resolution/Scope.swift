// The sync and async `withScope`/`run` pair is not ambiguous: Swift picks the async one only
// for an async closure.
// swift-format-ignore-file: AmbiguousTrailingClosureOverload

/// A child of a container that owns `.scoped` instances: one per request, screen or session.
///
/// Closing a scope disposes what it created, newest first, and closes its child scopes first.
/// Resolving from a closed scope is an error.
///
/// ```swift
/// let scope = container.makeScope()
/// let order = try scope.resolve(PitStopOrder.self)
/// try scope.close()
/// ```
public final class Scope: Resolver {
    @usableFromInline let container: ContainerCore
    @usableFromInline let core: ScopeCore

    init(container: ContainerCore, parent: ScopeCore) {
        self.container = container
        self.core = parent.makeChild() ?? ScopeCore.closed()
        // A child sees the values its parent was given, unless it is given its own.
        for slot in container.table.scopeValueSlots {
            if let value = parent.scopedInstance(slot) { core.storeScopedInstance(value, slot: slot) }
        }
    }

    @inlinable
    public func resolve<Service: Sendable>(_ type: Service.Type, name: String?) throws(GraftError) -> Service {
        try container.resolve(type, name: name, from: Unmanaged.passUnretained(core))
    }

    public func resolve<Service: Sendable>(_ type: Service.Type, name: String?) async throws(GraftError) -> Service {
        var state = ResolveState(scope: core)
        return try await container.resolveAsync(type, name: name, &state)
    }

    @inlinable
    public func resolveAll<Service: Sendable>(_ type: Service.Type) throws(GraftError) -> [Service] {
        var state = ResolveState(scope: core)
        return try container.resolveAll(type, &state)
    }

    public func resolveAll<Service: Sendable>(_ type: Service.Type) async throws(GraftError) -> [Service] {
        var state = ResolveState(scope: core)
        return try await container.resolveAllAsync(type, &state)
    }

    /// Whether the scope has been closed.
    public var isClosed: Bool { core.isClosed }

    /// A child scope, closed when this one closes.
    ///
    /// - Returns: An open scope, or a closed one when this scope is closed already.
    public func makeScope() -> Scope {
        Scope(container: container, parent: core)
    }

    /// Closes child scopes, then disposes what this scope created, newest first, exactly once.
    /// A second call does nothing.
    ///
    /// - Throws: ``GraftError`` listing every `dispose()` that threw, after all of them ran.
    public func close() throws(GraftError) {
        try Self.throwIfFailed(core.close(), closing: "the scope")
    }

    /// Closes the scope, awaiting async disposals.
    ///
    /// - Throws: ``GraftError`` listing every `dispose()` that threw, after all of them ran.
    public func close() async throws(GraftError) {
        try Self.throwIfFailed(await core.closeAsync(), closing: "the scope")
    }

    func run<Result>(_ body: (Scope) throws -> Result) throws -> Result {
        let result: Result
        do {
            result = try body(self)
        } catch {
            reportUnhandled(core.close(by: .withScope))
            throw error
        }
        try Self.throwIfFailed(core.close(by: .withScope), closing: "the scope")
        return result
    }

    func run<Result: Sendable>(_ body: (Scope) async throws -> Result) async throws -> Result {
        let result: Result
        do {
            result = try await body(self)
        } catch {
            reportUnhandled(await core.closeAsync())
            throw error
        }
        try await close()
        return result
    }

    private func reportUnhandled(_ failures: [GraftError]) {
        guard let error = Self.failure(failures, closing: "the scope") else { return }
        container.table.problemReporter(error)
    }

    static func throwIfFailed(_ failures: [GraftError], closing what: String) throws(GraftError) {
        if let error = failure(failures, closing: what) { throw error }
    }

    static func failure(_ failures: [GraftError], closing what: String) -> GraftError? {
        guard !failures.isEmpty else { return nil }
        let count = failures.count == 1 ? "1 disposal" : "\(failures.count) disposals"
        return GraftError(
            .disposalFailed,
            "\(count) failed while closing \(what)",
            hints: ["every other instance was disposed"],
            problems: failures
        )
    }
}

extension ScopeCore {
    /// A scope that was never open: what `makeScope()` returns after shutdown.
    static func closed() -> ScopeCore {
        let core = ScopeCore(isRoot: false, parent: nil)
        _ = core.close()
        return core
    }
}
