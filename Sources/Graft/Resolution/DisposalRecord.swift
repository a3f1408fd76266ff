/// An instance a scope or container created and must dispose when it ends.
@usableFromInline
enum DisposalRecord: Sendable {
    case sync(any Disposable, ServiceKey)
    case async(any AsyncDisposable, ServiceKey)

    init(_ disposal: Disposal, key: ServiceKey) {
        switch disposal {
        case .sync(let disposable): self = .sync(disposable, key)
        case .async(let disposable): self = .async(disposable, key)
        }
    }

    /// The record of disposing `value` with a registration's dispose closure.
    init<Service: Sendable>(_ disposer: Disposer, _ value: Service, key: ServiceKey) {
        switch disposer {
        case .sync(let dispose): self = .sync(DisposeClosure { try dispose(value) }, key)
        case .async(let dispose): self = .async(AsyncDisposeClosure { try await dispose(value) }, key)
        }
    }

    var key: ServiceKey {
        switch self {
        case .sync(_, let key), .async(_, let key): key
        }
    }

    func failure(_ error: any Error) -> GraftError {
        GraftError(
            .disposalFailed,
            "dispose() of \(key) threw: \(error)",
            service: key.description,
            underlyingError: error
        )
    }
}

/// A dispose closure bound to its instance, disposed like any `Disposable`.
private struct DisposeClosure: Disposable {
    let body: @Sendable () throws -> Void

    func dispose() throws { try body() }
}

/// An async dispose closure bound to its instance.
private struct AsyncDisposeClosure: AsyncDisposable {
    let body: @Sendable () async throws -> Void

    func dispose() async throws { try await body() }
}
