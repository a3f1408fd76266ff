/// Told what a container makes, what failed to be made, and what it disposes.
///
/// Add one with ``ContainerBuilder/addObserver(_:)`` before `build()`, or write one as
/// closures with ``ClosureObserver``. Each method is called
/// on the thread or task that did the work, right after it, so an observer must be quick and
/// must not resolve from the container it observes. Every method has a default that does
/// nothing: implement only those you need.
///
/// A container built without an observer pays nothing for observation: whether it has one is
/// decided once, when it is built, and no clock is read and no event made otherwise.
///
/// ```swift
/// struct Printer: ContainerObserver {
///     func didCreate(_ event: CreationEvent) {
///         print("made \(event.service) (\(event.lifetime)) in \(event.duration)")
///     }
/// }
/// builder.addObserver(Printer())
/// ```
public protocol ContainerObserver: Sendable {
    /// An instance was made: its factory ran (its dependencies with it) and its activation
    /// hooks and decorators ran. An existing shared instance handed out again is not made.
    func didCreate(_ event: CreationEvent)

    /// A factory threw. A dependency's failure is reported once, for the dependency's own
    /// factory, not again for each service that needed it.
    func factoryDidThrow(_ event: FactoryFailureEvent)

    /// An instance was disposed when its scope or container closed, or its `dispose()` threw.
    func didDispose(_ event: DisposalEvent)

    /// A scope was made, open. A scope made already closed (under a closed or draining
    /// container or scope) is not reported.
    func didOpenScope(_ event: ScopeEvent)

    /// A scope reported open closed: by its own `close()`, by its parent's or the container's
    /// shutdown, or by being let go without being closed (its instances then left to its
    /// parent). Each scope reported open is reported closed once.
    func didCloseScope(_ event: ScopeEvent)

    /// A scope closed, or was let go, holding work whose completion step never ran: a
    /// ``Completable`` it made was neither completed nor failed, so its work was not committed.
    /// Told after ``ContainerBuilder/unhandledErrorHandler`` is given the same error.
    func scopeDidCloseWithoutCompleting(_ event: NotCompletedEvent)
}

extension ContainerObserver {
    /// Does nothing.
    public func didCreate(_ event: CreationEvent) {}

    /// Does nothing.
    public func factoryDidThrow(_ event: FactoryFailureEvent) {}

    /// Does nothing.
    public func didDispose(_ event: DisposalEvent) {}

    /// Does nothing.
    public func didOpenScope(_ event: ScopeEvent) {}

    /// Does nothing.
    public func didCloseScope(_ event: ScopeEvent) {}

    /// Does nothing.
    public func scopeDidCloseWithoutCompleting(_ event: NotCompletedEvent) {}
}

/// Who owns an instance: disposes it, and keeps it when its lifetime shares it.
public enum InstanceOwner: Hashable, Sendable, CustomStringConvertible {
    /// The root container: singletons, and what is resolved from the container itself.
    case container
    /// A scope, identified as `ObjectIdentifier(scope)`: scoped instances, and what is
    /// resolved from that scope.
    case scope(ObjectIdentifier)

    /// `container` or `scope`.
    public var description: String {
        switch self {
        case .container: "container"
        case .scope: "scope"
        }
    }
}

/// One instance made, as a ``ContainerObserver`` is told of it.
public struct CreationEvent: Sendable {
    /// The service as Graft's messages name it: its type, and its name when it has one
    /// (`Engine`, `Engine["v12"]`).
    public let service: String
    /// The registration's lifetime.
    public let lifetime: Lifetime
    /// When the creation began, on the continuous clock.
    public let start: ContinuousClock.Instant
    /// How long the creation took: the factory, the dependencies it made, and the activation
    /// hooks and decorators.
    public let duration: Duration
    /// Who owns the instance.
    public let owner: InstanceOwner

    /// An event, as the engine makes one; to test an observer, or a report, with figures of
    /// your own.
    ///
    /// - Parameters:
    ///   - service: The service as Graft's messages name it.
    ///   - lifetime: The registration's lifetime.
    ///   - start: When the creation began.
    ///   - duration: How long it took, dependencies included.
    ///   - owner: Who owns the instance.
    public init(
        service: String,
        lifetime: Lifetime,
        start: ContinuousClock.Instant,
        duration: Duration,
        owner: InstanceOwner
    ) {
        self.service = service
        self.lifetime = lifetime
        self.start = start
        self.duration = duration
        self.owner = owner
    }

    /// When the creation ended: ``start`` plus ``duration``.
    public var end: ContinuousClock.Instant { start + duration }
}

/// A factory that threw, as a ``ContainerObserver`` is told of it.
public struct FactoryFailureEvent: Sendable {
    /// The service whose factory threw, as Graft's messages name it (`Engine`, `Engine["v12"]`).
    public let service: String
    /// What the factory threw.
    public let error: any Error

    /// An event, as the engine makes one; to test an observer with failures of your own.
    ///
    /// ```swift
    /// observer.factoryDidThrow(FactoryFailureEvent(service: "Database", error: ConnectionRefused()))
    /// ```
    ///
    /// - Parameters:
    ///   - service: The service as Graft's messages name it.
    ///   - error: What the factory threw.
    public init(service: String, error: any Error) {
        self.service = service
        self.error = error
    }
}

/// An instance disposed, as a ``ContainerObserver`` is told of it.
public struct DisposalEvent: Sendable {
    /// The service disposed, as Graft's messages name it (`Engine`, `Engine["v12"]`).
    public let service: String
    /// What `dispose()` threw, or `nil` when it returned.
    public let error: (any Error)?

    /// An event, as the engine makes one; to test an observer with disposals of your own.
    ///
    /// ```swift
    /// observer.didDispose(DisposalEvent(service: "Database", error: nil))
    /// ```
    ///
    /// - Parameters:
    ///   - service: The service as Graft's messages name it.
    ///   - error: What `dispose()` threw, or `nil` when it returned.
    public init(service: String, error: (any Error)?) {
        self.service = service
        self.error = error
    }
}

/// A scope opened or closed, as a ``ContainerObserver`` is told of it.
public struct ScopeEvent: Sendable {
    /// The scope, as ``InstanceOwner/scope(_:)`` identifies it: `ObjectIdentifier(scope)`.
    public let scope: ObjectIdentifier

    /// An event for `scope`; to test an observer with events of your own.
    ///
    /// - Parameter scope: The scope's identifier.
    public init(scope: ObjectIdentifier) {
        self.scope = scope
    }
}

/// A scope closed holding work whose completion step never ran, as a ``ContainerObserver`` is
/// told of it: the work was not committed, and nothing else says so.
///
/// ```swift
/// struct UncommittedWorkAlarm: ContainerObserver {
///     let logger: Logger
///     func scopeDidCloseWithoutCompleting(_ event: NotCompletedEvent) {
///         logger.error("\(event.error)")
///     }
/// }
/// ```
public struct NotCompletedEvent: Sendable {
    /// The scope whose close found the work, as ``InstanceOwner/scope(_:)`` identifies it:
    /// `ObjectIdentifier(scope)`. The work may have been made in a child scope it closed.
    public let scope: ObjectIdentifier
    /// The services whose completion step never ran, as Graft's messages name them
    /// (`Ledger`, `Ledger["audit"]`), in the order they were made.
    public let services: [String]
    /// The error ``ContainerBuilder/unhandledErrorHandler`` is given, with code
    /// ``GraftError/Code/notCompleted``: its description is the message to log.
    public let error: GraftError

    /// An event, as the engine makes one; to test an observer with events of your own.
    ///
    /// ```swift
    /// observer.scopeDidCloseWithoutCompleting(
    ///     NotCompletedEvent(scope: ObjectIdentifier(scope), services: ["Ledger"], error: error)
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - scope: The scope's identifier.
    ///   - services: The services whose completion step never ran.
    ///   - error: The error that describes it.
    public init(scope: ObjectIdentifier, services: [String], error: GraftError) {
        self.scope = scope
        self.services = services
        self.error = error
    }
}
