/// One thing a scope holds until it closes, as a shutdown that overran names it: an instance to
/// dispose, or a lease to return to the with-style API that lent it.
struct OpenHolding: Sendable, Equatable {
    let key: ServiceKey
    /// Whether it is leased (`register(_:lifetime:leasedFrom:)`): the API that lent it is waiting
    /// to take it back, which is what most often holds a shutdown up (a database connection).
    let isLease: Bool

    init(_ record: DisposalRecord) {
        key = record.key
        switch record {
        case .sync: isLease = false
        case .async(let disposable, _): isLease = disposable is any LeaseReturning
        }
    }

    /// How an open scope's line names it: `Orders`, or `a lease of PostgresConnection`.
    var held: String { isLease ? "a lease of \(key)" : key.description }

    /// How it is named while the scope is letting it go: `dispose() of Orders`, or
    /// `return of the lease of PostgresConnection`.
    var beingReleased: String { isLease ? "return of the lease of \(key)" : "dispose() of \(key)" }
}
