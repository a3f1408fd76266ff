/// The observers of one built container, told of its work by the engine.
///
/// A table holds one only when the builder was given an observer; each ``Entry`` of such a
/// table is marked `isObserved`, so the engine asks "observed?" with one read of the entry it
/// already holds, and a container without observers never reads a clock or makes an event.
final class Observers: Sendable {
    let list: [any ContainerObserver]

    /// The observers of `list`, or `nil` when it is empty.
    static func of(_ list: [any ContainerObserver]) -> Observers? {
        list.isEmpty ? nil : Observers(list)
    }

    private init(_ list: [any ContainerObserver]) {
        self.list = list
    }

    func didCreate(_ event: CreationEvent) {
        for observer in list { observer.didCreate(event) }
    }

    func factoryDidThrow(_ event: FactoryFailureEvent) {
        for observer in list { observer.factoryDidThrow(event) }
    }

    func didDispose(_ service: String, error: (any Error)?) {
        let event = DisposalEvent(service: service, error: error)
        for observer in list { observer.didDispose(event) }
    }

    func didOpenScope(_ scope: ObjectIdentifier) {
        let event = ScopeEvent(scope: scope)
        for observer in list { observer.didOpenScope(event) }
    }

    func didCloseScope(_ scope: ObjectIdentifier) {
        let event = ScopeEvent(scope: scope)
        for observer in list { observer.didCloseScope(event) }
    }

    func scopeDidCloseWithoutCompleting(_ event: NotCompletedEvent) {
        for observer in list { observer.scopeDidCloseWithoutCompleting(event) }
    }
}

/// A disposable that tells observers how its disposal went.
private struct ObservedDisposable: Disposable {
    let disposable: any Disposable
    let service: String
    let observers: Observers

    func dispose() throws {
        do {
            try disposable.dispose()
            observers.didDispose(service, error: nil)
        } catch {
            observers.didDispose(service, error: error)
            throw error
        }
    }
}

/// An async disposable that tells observers how its disposal went.
private struct ObservedAsyncDisposable: AsyncDisposable {
    let disposable: any AsyncDisposable
    let service: String
    let observers: Observers

    func dispose() async throws {
        do {
            try await disposable.dispose()
            observers.didDispose(service, error: nil)
        } catch {
            observers.didDispose(service, error: error)
            throw error
        }
    }
}

/// Reporting to observers: what the engine's synchronous and async paths both call, each given
/// the table whose observers it tells.
extension Observers {
    /// The start of an observed creation.
    @inline(never)
    static func creationStart() -> ContinuousClock.Instant {
        ContinuousClock.now
    }

    /// Tells the observers of `table` that `entry`'s instance, begun at `start`, was made for
    /// `state`'s scope.
    @inline(never)
    static func reportCreation(
        _ entry: Entry,
        _ state: borrowing ResolveState,
        since start: ContinuousClock.Instant,
        in table: RegistrationTable
    ) {
        let duration = ContinuousClock.now - start
        guard let observers = table.observers else { return }
        let scope = state.scope
        observers.didCreate(
            CreationEvent(
                service: entry.observedName,
                lifetime: Lifetime(entry.lifetime, tag: entry.scopeTag),
                start: start,
                duration: duration,
                owner: scope.isRoot ? .container : .scope(ObjectIdentifier(scope))
            )
        )
    }

    /// `record`, made to tell the observers of `table` of its disposal when `entry` is observed.
    ///
    /// Disposals are observed by wrapping what is disposed when it is adopted, so closing a
    /// scope or container is the same code with or without observers.
    static func observed(_ record: DisposalRecord, _ entry: Entry, in table: RegistrationTable) -> DisposalRecord {
        guard entry.isObserved, let observers = table.observers else { return record }
        switch record {
        case .sync(let disposable, let key):
            return .sync(
                ObservedDisposable(disposable: disposable, service: entry.observedName, observers: observers),
                key
            )
        case .async(let disposable, let key):
            return .async(
                ObservedAsyncDisposable(disposable: disposable, service: entry.observedName, observers: observers),
                key
            )
        }
    }

    /// Tells the observers of `table` that `entry`'s own factory threw `error` (not a
    /// `GraftError`, which a dependency's failure is, and which was reported for that dependency).
    @inline(never)
    static func reportFactoryFailure(_ entry: Entry, _ error: any Error, in table: RegistrationTable) {
        table.observers?.factoryDidThrow(FactoryFailureEvent(service: entry.observedName, error: error))
    }
}
