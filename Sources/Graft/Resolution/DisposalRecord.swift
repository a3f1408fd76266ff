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
