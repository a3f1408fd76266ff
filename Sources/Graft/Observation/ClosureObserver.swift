/// An observer written as closures, one for each event it wants: for a few lines of logging or
/// a test, where a type of its own would be ceremony.
///
/// Add it as any observer, with ``ContainerBuilder/addObserver(_:)``. A closure left out does
/// nothing, as a ``ContainerObserver`` method left out does. Each closure runs on the thread or
/// task that did the work, right after it: keep it quick, and do not resolve from the container
/// it observes.
///
/// ```swift
/// builder.addObserver(
///     ClosureObserver { created in
///         logger.debug("made \(created.service) in \(created.duration)")
///     } factoryDidThrow: { failed in
///         logger.error("\(failed.service) could not be made: \(failed.error)")
///     } didDispose: { disposed in
///         if let error = disposed.error { logger.error("\(disposed.service) did not dispose: \(error)") }
///     }
/// )
/// ```
public struct ClosureObserver: ContainerObserver {
    private let created: @Sendable (CreationEvent) -> Void
    private let failed: @Sendable (FactoryFailureEvent) -> Void
    private let disposed: @Sendable (DisposalEvent) -> Void
    private let opened: @Sendable (ScopeEvent) -> Void
    private let closed: @Sendable (ScopeEvent) -> Void
    private let notCompleted: @Sendable (NotCompletedEvent) -> Void

    /// An observer that runs the closures given, and does nothing for the events left out.
    ///
    /// - Parameters:
    ///   - didCreate: Told of each instance made.
    ///   - factoryDidThrow: Told of each factory that threw.
    ///   - didDispose: Told of each disposal, and of the error of one that threw.
    ///   - didOpenScope: Told of each scope made.
    ///   - didCloseScope: Told of each scope closed.
    ///   - scopeDidCloseWithoutCompleting: Told of each scope closed holding work whose
    ///     completion step never ran.
    public init(
        didCreate: @escaping @Sendable (CreationEvent) -> Void = { _ in },
        factoryDidThrow: @escaping @Sendable (FactoryFailureEvent) -> Void = { _ in },
        didDispose: @escaping @Sendable (DisposalEvent) -> Void = { _ in },
        didOpenScope: @escaping @Sendable (ScopeEvent) -> Void = { _ in },
        didCloseScope: @escaping @Sendable (ScopeEvent) -> Void = { _ in },
        scopeDidCloseWithoutCompleting: @escaping @Sendable (NotCompletedEvent) -> Void = { _ in }
    ) {
        self.created = didCreate
        self.failed = factoryDidThrow
        self.disposed = didDispose
        self.opened = didOpenScope
        self.closed = didCloseScope
        self.notCompleted = scopeDidCloseWithoutCompleting
    }

    /// Runs the `didCreate` closure.
    ///
    /// - Parameter event: The instance made.
    public func didCreate(_ event: CreationEvent) { created(event) }

    /// Runs the `factoryDidThrow` closure.
    ///
    /// - Parameter event: The factory that threw, and its error.
    public func factoryDidThrow(_ event: FactoryFailureEvent) { failed(event) }

    /// Runs the `didDispose` closure.
    ///
    /// - Parameter event: The instance disposed, and the error its `dispose()` threw.
    public func didDispose(_ event: DisposalEvent) { disposed(event) }

    /// Runs the `didOpenScope` closure.
    ///
    /// - Parameter event: The scope made.
    public func didOpenScope(_ event: ScopeEvent) { opened(event) }

    /// Runs the `didCloseScope` closure.
    ///
    /// - Parameter event: The scope closed.
    public func didCloseScope(_ event: ScopeEvent) { closed(event) }

    /// Runs the `scopeDidCloseWithoutCompleting` closure.
    ///
    /// - Parameter event: The scope, and the services whose work was not committed.
    public func scopeDidCloseWithoutCompleting(_ event: NotCompletedEvent) { notCompleted(event) }
}
