// The sync and async `run` pair is not ambiguous: Swift picks the async one only for an async
// closure.
// swift-format-ignore-file: AmbiguousTrailingClosureOverload

import Synchronization

extension Scope {
    /// Closes child scopes, then disposes what this scope created, newest first, exactly once.
    /// A second call does nothing.
    ///
    /// - Throws: ``GraftError`` listing every `dispose()` that threw, after all of them ran.
    public func close() throws(GraftError) {
        try Self.throwIfFailed(closeCollectingFailures(), closing: "the scope")
    }

    /// Closes the scope, awaiting async disposals.
    ///
    /// - Throws: ``GraftError`` listing every `dispose()` that threw, after all of them ran.
    public func close() async throws(GraftError) {
        try Self.throwIfFailed(await closeAwaitingDisposals(), closing: "the scope")
    }

    /// Runs `body` with a new child scope and closes the child when `body` ends: one message of
    /// a connection, one step of a session.
    ///
    /// - Parameter body: Work that resolves scoped services.
    /// - Returns: What `body` returns.
    /// - Throws: `body`'s error, or a ``GraftError`` when disposal fails or the child made work
    ///   with a completion step, which only the async form can run.
    public func withScope<Result>(_ body: (Scope) throws -> Result) throws -> Result {
        try makeScope().run(body)
    }

    /// Runs async `body` with a new child scope; when `body` returns, runs the child's completion
    /// step (see ``complete()``), then closes it, awaiting async disposals.
    ///
    /// ```swift
    /// for message in connection.messages {
    ///     try await connectionScope.withScope { messageScope in
    ///         try await messageScope.resolve(MessageHandler.self).handle(message)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter body: Work that resolves scoped services.
    /// - Returns: What `body` returns.
    /// - Throws: `body`'s error, or a ``GraftError`` when the completion step or disposal fails.
    public func withScope<Result: Sendable>(_ body: (Scope) async throws -> Result) async throws -> Result {
        try await makeScope().run(body)
    }

    /// `withScope`'s work: `body`, then the close. A completion step cannot run here (it
    /// awaits), so a scope left with one fails instead of dropping the work it would commit.
    func run<Result>(_ body: (Scope) throws -> Result) throws -> Result {
        let result: Result
        do {
            result = try body(self)
            let notCompleted = servicesNotCompleted
            if !notCompleted.isEmpty { throw Self.cannotCompleteSynchronously(notCompleted) }
        } catch {
            // The error thrown tells what went wrong: work left uncompleted is no news.
            markFailed()
            reportUnhandled(closeCollectingFailures(by: .withScope))
            throw error
        }
        try Self.throwIfFailed(closeCollectingFailures(by: .withScope), closing: "the scope")
        return result
    }

    /// The async `withScope`'s work: `body`, the completion step once it returns, then the close.
    func run<Result: Sendable>(_ body: (Scope) async throws -> Result) async throws -> Result {
        let result: Result
        do {
            result = try await body(self)
            try await complete()
        } catch {
            markFailed()
            reportUnhandled(await closeAwaitingDisposals())
            throw error
        }
        try await close()
        return result
    }

    private static func cannotCompleteSynchronously(_ services: [ServiceKey]) -> GraftError {
        let names = services.map(\.description)
        return GraftError(
            .completionFailed,
            "withScope made \(names.joined(separator: ", ")), whose completion step a synchronous withScope cannot run",
            service: names.first,
            hints: [
                "use the async form, which completes when the body returns: "
                    + "try await container.withScope { scope in … }",
                "nothing was completed, and the scope is closed",
            ]
        )
    }

    private func reportUnhandled(_ failures: [GraftError]) {
        guard let error = Self.failure(failures, closing: "the scope") else { return }
        container.table.problemReporter(error)
    }

    /// Inlined, and asking for no failure first: a close with nothing failed, every request's,
    /// then makes no call to build the error.
    @inline(__always)
    static func throwIfFailed(_ failures: [GraftError], closing what: String) throws(GraftError) {
        guard !failures.isEmpty else { return }
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

// MARK: How a scope closes

extension Scope {
    /// A child's reference to its parent.
    ///
    /// The root is referred to unretained: every scope made from a container would otherwise
    /// retain and release the root, or form a weak reference to it, writes to one object that
    /// every thread making scopes shares. That is sound because only a child itself tells its
    /// parent (when it closes, or in its `deinit`), and a child holds its container, which holds
    /// the root. A scope made under another scope holds that one: nothing else keeps it alive.
    enum Parent {
        case root(Unretained<Scope>)
        case scope(Scope)

        /// Inlined into the close, its one caller on every scope's path: as a call of its own
        /// it cost about as much as its switch.
        @inline(__always)
        func forget(_ child: Scope) {
            switch self {
            case .root(let root): root.with { $0.forget(child) }
            case .scope(let scope): scope.forget(child)
            }
        }

        /// Whether `child` was still listed, and so is closed by being let go.
        func unlist(_ child: Scope) -> Bool {
            switch self {
            case .root(let root): root.with { $0.unlist(child) }
            case .scope(let scope): scope.unlist(child)
            }
        }
    }

    /// Marks the scope closed and hands over what must be disposed: open children first (each
    /// with its own records), then this scope's records, newest first. `nil` if already closed.
    ///
    /// Inlined into the synchronous and the asynchronous close, which every scope runs: as a call
    /// of its own it cost about 20 instructions a close.
    @inline(__always)
    private func beginClose() -> [DisposalRecord]? {
        // What the scopes held is let go only after every lock: releasing instances runs their
        // deinits, which must not run with a lock held. Taken field by field into locals of their
        // own types: a whole `State` taken and dropped here cost about 500 instructions a close.
        var taken = Taken()
        // Only a scope of an observed container lists the scopes it closes, for its observers.
        var closedScopes: ClosedScopes? = isObserved ? ClosedScopes() : nil
        let closedNow = withState { state in takeForClosing(&state, into: &taken, closedScopes: &closedScopes) }
        guard closedNow else { return nil }
        if let closedScopes { report(closedScopes) }
        if !taken.notCompleted.isEmpty { reportNotCompleted(taken.notCompleted) }
        // Moved out, not copied: a copy retains the array only for `taken` to release it.
        var records: [DisposalRecord] = []
        swap(&records, &taken.records)
        return records
    }

    /// What a close takes out of the scopes it closes. Non-copyable, as the instances it holds.
    private struct Taken: ~Copyable {
        /// What must be disposed, in order.
        var records: [DisposalRecord] = []
        /// The closing scope's instances.
        var instances = ScopedInstances()
        /// Its children's instances (no allocation for a scope without children).
        var childrenInstances: [InstanceCell] = []
        /// The services whose completion step never ran, in scopes that did not fail.
        var notCompleted: [ServiceKey] = []
    }

    /// Tells the container's problem reporter (``ContainerBuilder/unhandledErrorHandler``), then
    /// its observers, that work made in the scopes a close closed was never completed: committed
    /// nowhere, and otherwise told to nobody.
    @inline(never)
    fileprivate func reportNotCompleted(_ services: [ServiceKey]) {
        guard let table = retainedContainer?.table else { return }
        let error = Self.notCompletedError(services)
        table.problemReporter(error)
        table.observers?.scopeDidCloseWithoutCompleting(
            NotCompletedEvent(scope: id, services: services.map(\.description), error: error)
        )
    }

    static func notCompletedError(_ services: [ServiceKey]) -> GraftError {
        let names = services.map(\.description)
        let step =
            names.count == 1
            ? "the completion step of \(names[0]) never ran"
            : "the completion steps of \(names.joined(separator: ", ")) never ran"
        return GraftError(
            .notCompleted,
            "a scope closed, but \(step): its work was not committed",
            service: names.first,
            hints: [
                "run try await scope.complete() before closing the scope, or use try await container.withScope { … }, "
                    + "which completes when its body returns",
                "a scope whose work failed says so first (RequestScopeLease.fail() in a web framework integration) "
                    + "and closes without this report",
            ]
        )
    }

    /// Tells the observers of the scopes a close closed: this one's children, then this one.
    @inline(never)
    private func report(_ closedScopes: ClosedScopes) {
        closedScopes.report()
        if !isRoot { container.table.observers?.didCloseScope(id) }
    }

    /// The child scopes a close closed, to tell the observers of once every lock is released (no
    /// allocation for a scope without children).
    private struct ClosedScopes {
        var observers: Observers?
        var ids: [ObjectIdentifier] = []

        mutating func add(_ id: ObjectIdentifier, _ observers: Observers) {
            self.observers = observers
            ids.append(id)
        }

        func report() {
            guard let observers else { return }
            for id in ids { observers.didCloseScope(id) }
        }
    }

    /// ``beginClose()`` with this scope's lock held: this scope's instances and records, and its
    /// children's. Children are closed under the lock too, so a child that is being let go
    /// meanwhile waits in `unlist(_:)` until this is done with it, and its memory stays valid
    /// while it is read here. Creations under way keep their claims, so they still settle and
    /// wake their waiters (see `Scope+Claims.swift`). Returns whether this call closed the scope.
    private func takeForClosing(
        _ state: inout State,
        into taken: inout Taken,
        closedScopes: inout ClosedScopes?
    ) -> Bool {
        guard closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return false }
        if !state.children.isEmpty {
            state.children.removeAll { child in
                var childTaken = Taken()
                swap(&childTaken.records, &taken.records)
                swap(&childTaken.notCompleted, &taken.notCompleted)
                let closedNow = child.withState {
                    child.takeForClosing(&$0, into: &childTaken, closedScopes: &closedScopes)
                }
                swap(&childTaken.records, &taken.records)
                swap(&childTaken.notCompleted, &taken.notCompleted)
                guard closedNow else { return }
                if closedScopes != nil, let observers = child.container.table.observers {
                    closedScopes?.add(child.id, observers)
                }
                childTaken.instances.moveAll(into: &taken.childrenInstances)
                taken.childrenInstances += childTaken.childrenInstances
            }
        }
        swap(&taken.instances, &state.scoped)
        if !state.completions.isEmpty {
            if !state.failed { taken.notCompleted += state.completions.map(\.service) }
            state.completions = []
        }
        if !state.disposables.isEmpty {
            taken.records += state.disposables.reversed()
            state.disposables = []
        }
        state.drainWaiters = nil
        return true
    }

    /// Called once a child's disposals are done, so a drain waits for them to finish.
    /// Inlined into the close, its one caller (through ``Parent/forget(_:)``).
    @inline(__always)
    private func forget(_ child: Scope) {
        guard let waiters = withState({ state in remove(child, from: &state) }) else { return }
        for waiter in waiters { waiter() }
    }

    /// Called by a child that is let go without being closed: its records become this scope's,
    /// disposed when this one closes, as they would have been had it stayed listed.
    /// Returns whether `child` was still listed (not closed meanwhile by this scope's close).
    func unlist(_ child: Scope) -> Bool {
        var notCompleted: [ServiceKey] = []
        let (wasListed, waiters) = withState { state -> (Bool, [@Sendable () -> Void]?) in
            guard child.listing.isListed else { return (false, nil) }
            child.withState { childState in
                state.disposables += childState.disposables
                if !childState.failed { notCompleted = childState.completions.map(\.service) }
            }
            return (true, remove(child, from: &state))
        }
        for waiter in waiters ?? [] { waiter() }
        if !notCompleted.isEmpty { child.reportNotCompleted(notCompleted) }
        return wasListed
    }

    /// Takes `child` off the list, if it is still on it; returns the drain's waiters to run
    /// when that closed the last one (`nil`, not an empty list, otherwise: every close asks).
    private func remove(_ child: Scope, from state: inout State) -> [@Sendable () -> Void]? {
        _ = state.children.remove(child)
        guard state.children.isEmpty, let waiters = state.drainWaiters else { return nil }
        state.drainWaiters = []
        return waiters
    }

    /// Refuses new children from now on; `whenEmpty` runs once no child is open (now, if none is).
    func drain(whenEmpty: @escaping @Sendable () -> Void) {
        let isEmpty = withState { state -> Bool in
            if state.children.isEmpty {
                state.drainWaiters = state.drainWaiters ?? []
                return true
            }
            state.drainWaiters = (state.drainWaiters ?? []) + [whenEmpty]
            return false
        }
        if isEmpty { whenEmpty() }
    }

    var isDraining: Bool { withState { $0.drainWaiters != nil } }

    /// Closes the scope, disposing synchronously; async disposables are reported as failures,
    /// with hints for the call that closed it.
    func closeCollectingFailures(by call: SynchronousClose = .scope) -> [GraftError] {
        var failures: [GraftError] = []
        for record in beginClose() ?? [] {
            switch record {
            case .sync(let disposable, _):
                do { try disposable.dispose() } catch { failures.append(record.failure(error)) }
            case .async(let disposable, let key):
                // A lease cannot be awaited here; letting it go ends the lender's task, which
                // would otherwise hold the resource until the process ends.
                (disposable as? any LeaseReturning)?.returnWithoutAwaiting()
                failures.append(
                    GraftError(
                        .disposalFailed,
                        "\(key) is AsyncDisposable and was not disposed by a synchronous close",
                        service: key.description,
                        hints: call.hints(for: key)
                    )
                )
            }
        }
        parent?.forget(self)
        return failures
    }

    /// Closes the scope, awaiting async disposals.
    ///
    /// - Parameter disposing: Where each `dispose()` in progress is recorded; the root, which
    ///   holds no container, is given its container's.
    func closeAwaitingDisposals(recordingIn disposing: DisposalsInProgress? = nil) async -> [GraftError] {
        var failures: [GraftError] = []
        let disposing = disposing ?? retainedContainer?.disposing
        for record in beginClose() ?? [] {
            let disposal = disposing?.begin(record)
            defer { disposal.map { disposing?.end($0) } }
            do {
                switch record {
                case .sync(let disposable, _): try disposable.dispose()
                case .async(let disposable, _): try await disposable.dispose()
                }
            } catch {
                failures.append(record.failure(error))
            }
        }
        parent?.forget(self)
        return failures
    }
}
