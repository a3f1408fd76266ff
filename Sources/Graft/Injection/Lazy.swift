/// A dependency created on first access, at most once: the fire extinguisher of
/// <doc:SeedsTour>, made only when there is a fire.
///
/// Ask for `Lazy<T>` wherever `T` is registered; it needs no registration of its own. The
/// value follows `T`'s lifetime (a lazy singleton is still the singleton) and is created once
/// even when several threads read it at the same time.
///
/// ```swift
/// final class RaceCar: Sendable {
///     let extinguisher: Lazy<FireExtinguisher>
///     func putOutFire() throws { try extinguisher.value.spray() }
/// }
/// ```
///
/// A `Lazy` holds its container weakly, so it never keeps the container alive.
public final class Lazy<Value: Sendable>: Sendable {
    private let link: DeferredLink
    private let cached = Locked<Value?>(nil)

    init(_ link: DeferredLink) {
        self.link = link
    }

    /// The value, created by the first access.
    ///
    /// Concurrent first accesses wait for one creation and all receive its result; a `Lazy`
    /// read again while its own value is being created is a cycle, reported as an error.
    ///
    /// - Throws: ``GraftError`` when the factory behind it throws; the next access tries again.
    public var value: Value {
        get throws(GraftError) {
            if let value = cached.withLock({ $0 }) { return value }
            let coordinator = try link.coordinator()
            switch try coordinator.acquire(slot, key: link.key, existing: existing) {
            case .ready(let box):
                return box.value()
            case .claimed(let chain):
                do {
                    let value = try CreationChain.onThread.with(chain) { () throws -> Value in
                        try link.resolve(Value.self)
                    }
                    cached.withLock { $0 = value }
                    coordinator.finish(chain, .success(InstanceCell.make(value)))
                    return value
                } catch {
                    let failure = GraftError.wrapping(error)
                    coordinator.finish(chain, .failure(failure))
                    throw failure
                }
            }
        }
    }

    /// The value, created by the first access, awaiting an async factory.
    ///
    /// Concurrent first accesses suspend until the one creation finishes.
    ///
    /// - Throws: ``GraftError`` when the factory behind it throws; the next access tries again.
    public var asyncValue: Value {
        get async throws(GraftError) {
            if let value = cached.withLock({ $0 }) { return value }
            let coordinator = try link.coordinator()
            switch try await coordinator.acquireAsync(slot, key: link.key, existing: existing) {
            case .ready(let box):
                return box.value()
            case .claimed(let chain):
                do {
                    let value = try await CreationChain.$inTask.withValue(chain) { () async throws -> Value in
                        try await link.resolveAsync(Value.self)
                    }
                    cached.withLock { $0 = value }
                    coordinator.finish(chain, .success(InstanceCell.make(value)))
                    return value
                } catch {
                    let failure = GraftError.wrapping(error)
                    coordinator.finish(chain, .failure(failure))
                    throw failure
                }
            }
        }
    }

    /// Whether the value has been created.
    public var isCreated: Bool { cached.withLock { $0 != nil } }

    private var slot: SlotID { SlotID(store: ObjectIdentifier(self), index: 0) }

    private func existing() -> InstanceCell? {
        cached.withLock { $0 }.map(InstanceCell.make)
    }
}

extension Lazy: WrappedDependency {
    static var dependency: Dependency {
        Dependency(key: ServiceKey(Value.self), kind: .deferred, wrapper: { Lazy($0) })
    }
}
