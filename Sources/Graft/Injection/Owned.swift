/// A unit of work outside HTTP (a job, a queue message, a command): a service resolved in a
/// scope of its own, which its owner completes and disposes.
///
/// Ask for `Owned<T>` wherever `T` is registered; it needs no registration of its own.
/// Resolving it opens a scope under the scope (or root container) it is resolved from and
/// resolves `T` there: `T`'s `.scoped` dependencies are the unit's own, made for it alone, and
/// singletons are shared as everywhere. A consumer that handles one message at a time asks for
/// `Provider<Owned<T>>`, whose every `get()` is a new unit:
///
/// ```swift
/// final class OrderConsumer: Sendable {
///     let handlers: Provider<Owned<OrderHandler>>
///
///     func run(_ queue: MessageQueue) async throws {
///         for try await message in queue.messages {
///             let unit = try await handlers.get()  // a new scope, and a handler made in it
///             do {
///                 try await unit.value.handle(message)
///                 try await unit.complete()  // COMMIT, before the message is acknowledged
///             } catch {
///                 try await unit.dispose()  // ROLLBACK: disposed without completing
///                 try await message.reject()
///                 continue
///             }
///             try await message.acknowledge()
///             try await unit.dispose()  // releases what the unit holds
///         }
///     }
/// }
/// ```
///
/// A singleton may hold `Provider<Owned<T>>` even when `T`, or what `T` needs, is `.scoped`:
/// that is no captive dependency, since each unit's scoped services live in the unit's scope.
/// A singleton that holds `Owned<T>` itself is accepted too: its one unit is opened when the
/// singleton is made, under the root container, and lives until the singleton disposes it.
/// `build()` checks `T`'s whole graph behind either form, and reports a missing dependency of
/// `T` with the path through its holder.
///
/// The unit's scope is a child of the scope it was resolved from: a unit never disposed is
/// closed with that scope at the latest (for a unit made from a singleton, when the container
/// shuts down), and, like any scope let go or closed with its completion step not run, it is
/// reported then as work that was never completed.
public final class Owned<Value: Sendable>: Sendable {
    /// The service, resolved in the unit's own scope.
    public let value: Value

    /// The unit's scope: a child of the scope the unit was resolved from.
    let scope: Scope

    init(_ value: Value, in scope: Scope) {
        self.value = value
        self.scope = scope
    }

    /// Runs the unit's completion step: the ``Completable/complete()`` (or `onComplete`
    /// closure) of each instance made for the unit whose registration has one, newest first.
    ///
    /// Call it when the unit's work succeeded and before you report success (acknowledge the
    /// message, answer the command), then ``dispose()-63htv``:
    ///
    /// ```swift
    /// try await unit.value.handle(message)
    /// try await unit.complete()     // COMMIT; a failure is thrown here, before the acknowledgement
    /// try await unit.dispose()      // release the connection
    /// ```
    ///
    /// Each instance completes at most once: a second call runs only the steps of instances made
    /// for the unit since the first. The step stops at the first instance that throws; the unit
    /// stays open, and disposing it disposes every instance as usual.
    ///
    /// - Throws: ``GraftError`` with code ``GraftError/Code/completionFailed``, naming the
    ///   service whose step threw, with the error it threw as its `underlyingError`; or
    ///   ``GraftError/Code/closed`` when the unit is disposed.
    public func complete() async throws(GraftError) {
        if scope.isClosed { throw Self.disposedBeforeCompleting }
        do {
            try await scope.complete()
        } catch {
            // Disposed meanwhile: said as the unit's owner knows it.
            throw error.code == .closed ? Self.disposedBeforeCompleting : error
        }
    }

    /// Disposes what was made for the unit, newest first, exactly once; a second call does
    /// nothing. Never a singleton: what the unit shares with others is not the unit's.
    ///
    /// Disposing a unit whose ``complete()`` has not run is how its work is rolled back: its
    /// completion steps never run, and that is not reported, since its owner decided so. Use
    /// the `async` form when the unit may hold an ``AsyncDisposable`` instance.
    ///
    /// - Throws: ``GraftError`` listing every `dispose()` that threw, after all of them ran; an
    ///   ``AsyncDisposable`` instance, which this call cannot await, is one of them.
    public func dispose() throws(GraftError) {
        scope.markFailed()
        try scope.close()
    }

    /// Disposes what was made for the unit, newest first, exactly once, awaiting async
    /// disposals; a second call does nothing. Never a singleton.
    ///
    /// Disposing a unit whose ``complete()`` has not run is how its work is rolled back: its
    /// completion steps never run, and that is not reported, since its owner decided so.
    ///
    /// - Throws: ``GraftError`` listing every `dispose()` that threw, after all of them ran.
    public func dispose() async throws(GraftError) {
        scope.markFailed()
        try await scope.close()
    }

    private static var disposedBeforeCompleting: GraftError {
        GraftError(
            .closed,
            "the unit of work \(ServiceKey(Owned.self)) is disposed: its completion step can no longer run",
            service: ServiceKey(Owned.self).description,
            hints: ["run try await owned.complete() before owned.dispose()"]
        )
    }
}
