/// One instance of a service leased from a with-style API: the task that runs the lender's
/// closure, held open from the moment it lends the instance until the scope that owns the lease
/// closes.
///
/// ```
///  resolve ──acquire()──▶ Task { lender(resolver) { value in  ──lend──▶ resolve returns value
///                                   await returned }          ◀─return── scope.close() → dispose()
///                         }                                    ──ends──▶ dispose() returns (or throws)
/// ```
///
/// The task is the only unstructured task, and no caller leaves it running: `acquire()` awaits it
/// when it fails or is cancelled, and `dispose()` (run by the owning scope's close) awaits it
/// after telling the lender's closure to return. So the lender's errors reach a caller: those
/// before lending as the resolve's error, those after as a disposal failure.
///
/// `Sendable` as the compiler checks it: everything that changes (the lender's task among it)
/// is reached only through ``Locked``.
final class Lease<Service: Sendable>: AsyncDisposable, LeaseReturning, Sendable {
    typealias Lender =
        @Sendable (any Resolver, _ use: @escaping @Sendable (Service) async throws -> Void) async throws -> Void

    private enum Phase: Sendable {
        /// The lender has not lent yet; `acquirer` is the resolve waiting for it, once it waits.
        case waiting(acquirer: CheckedContinuation<Service, any Error>?)
        /// Lent, and handed to the resolve (or held for it until it asks).
        case lent(Service?)
        /// The lender returned or threw without lending; held for the resolve until it asks.
        case failed(any Error)
        /// The resolve has its outcome; nothing more is handed over.
        case settled
    }

    private struct State: Sendable {
        var phase = Phase.waiting(acquirer: nil)
        /// Whether the lender's closure has been called once already.
        var lendings = 0
        /// Set once the lease is to be returned; the closure holding it open returns then.
        var returning = false
        /// The lender's closure, suspended until the lease is returned.
        var holder: CheckedContinuation<Void, Never>?
        /// The lender's task, set by `acquire()` as it starts it.
        var task: Task<Void, any Error>?
    }

    private let key: ServiceKey
    private let state = Locked(State())

    init(_ key: ServiceKey) {
        self.key = key
    }

    /// Runs `lender` in a task and waits until it lends an instance.
    ///
    /// - Throws: What the lender threw before lending, a ``GraftError`` when it returned without
    ///   lending, or `CancellationError` when the resolving task was cancelled (the lender's task
    ///   is cancelled too, and awaited: whatever it lent meanwhile is returned at once).
    func acquire(_ resolver: any Resolver, _ lender: @escaping Lender) async throws -> Service {
        let task = Task {
            do {
                try await lender(resolver) { value in try await self.lend(value) }
            } catch {
                if fail(error) { return }  // before lending: the resolve throws it
                throw error  // after lending: dispose() throws it
            }
            if fail(LeaseErrors.returnedWithoutLending(key)) { return }
        }
        state.withLock { $0.task = task }
        let outcome: Result<Service, any Error> = await withTaskCancellationHandler {
            do { return .success(try await waitForLending()) } catch { return .failure(error) }
        } onCancel: {
            task.cancel()
        }
        switch outcome {
        case .success(let value) where !Task.isCancelled:
            return value
        case .success:
            // Lent, but the resolve was cancelled meanwhile: nobody will use it, so it goes back.
            try? await dispose()
            throw CancellationError()
        case .failure(let error):
            _ = await task.result
            throw error
        }
    }

    private func waitForLending() async throws -> Service {
        try await withCheckedThrowingContinuation { acquirer in
            let outcome = state.withLock { state -> Result<Service, any Error>? in
                switch state.phase {
                case .waiting:
                    state.phase = .waiting(acquirer: acquirer)
                    return nil
                case .lent(let value):
                    state.phase = .settled
                    return value.map { .success($0) }
                case .failed(let error):
                    state.phase = .settled
                    return .failure(error)
                case .settled:
                    return .failure(LeaseErrors.internalState(key))
                }
            }
            if let outcome { acquirer.resume(with: outcome) }
        }
    }

    /// The lender's closure: hands `value` to the resolve, then holds the lease open until it is
    /// returned.
    private func lend(_ value: Service) async throws {
        let acquirer = try state.withLock { state throws(GraftError) -> CheckedContinuation<Service, any Error>? in
            state.lendings += 1
            guard state.lendings == 1 else { throw LeaseErrors.lentTwice(key) }
            guard case .waiting(let acquirer) = state.phase else { return nil }
            state.phase = acquirer == nil ? .lent(value) : .settled
            return acquirer
        }
        acquirer?.resume(returning: value)
        await withCheckedContinuation { holder in
            let returnNow = state.withLock { state in
                if !state.returning { state.holder = holder }
                return state.returning
            }
            if returnNow { holder.resume() }
        }
    }

    /// Records that the lender ended without lending, for the resolve; `false` if it had lent.
    private func fail(_ error: any Error) -> Bool {
        let acquirer = state.withLock { state -> CheckedContinuation<Service, any Error>?? in
            guard state.lendings == 0, case .waiting(let acquirer) = state.phase else { return .none }
            state.phase = acquirer == nil ? .failed(error) : .settled
            return .some(acquirer)
        }
        guard case .some(let waiting) = acquirer else { return false }
        waiting?.resume(throwing: error)
        return true
    }

    /// Lets the lender's closure return, without waiting for the lender to end.
    func returnWithoutAwaiting() {
        let holder = state.withLock { state in
            state.returning = true
            defer { state.holder = nil }
            return state.holder
        }
        holder?.resume()
    }

    /// Returns the lease: the lender's closure returns, and this waits for the lender to end.
    ///
    /// - Throws: What the with-style API threw while taking the instance back (a `COMMIT` that
    ///   failed as `withTransaction` ended, a connection that could not be given back).
    func dispose() async throws {
        returnWithoutAwaiting()
        try await state.withLock { $0.task }?.value
    }
}

/// The messages of leases, in one place.
enum LeaseErrors {
    static func returnedWithoutLending(_ key: ServiceKey) -> GraftError {
        GraftError(
            .invalidLease,
            "the lender of \(key) returned without lending it",
            service: key.description,
            hints: [
                "call use(value) inside the with-style API's closure, and await it: { r, use in try await pool.withConnection { try await use($0) } }"
            ]
        )
    }

    static func lentTwice(_ key: ServiceKey) -> GraftError {
        GraftError(
            .invalidLease,
            "the lender of \(key) called use(value) twice: a lease lends one instance",
            service: key.description,
            hints: ["call use(value) once; a scope that needs another instance resolves it in another scope"]
        )
    }

    static func internalState(_ key: ServiceKey) -> GraftError {
        GraftError(.invalidLease, "internal: the lease of \(key) was asked for twice", service: key.description)
    }

    static func notScoped(_ key: ServiceKey, _ lifetime: Lifetime, at source: String) -> GraftError {
        GraftError(
            .invalidLease,
            "\(key) (\(source)) is leased from a with-style API and is \(lifetime), not .scoped",
            service: key.description,
            hints: [
                "a lease is held from the first resolve in a scope until that scope closes, so only a .scoped "
                    + "service can be leased; register \(key) with lifetime: .scoped"
            ]
        )
    }
}
