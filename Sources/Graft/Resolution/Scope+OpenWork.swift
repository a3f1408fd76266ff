/// The open scopes under a scope, for a shutdown that overran: read only.
extension Scope {
    /// For each scope open under this one (each before the scopes under it), what it would
    /// dispose or return. A scope that is closing names its disposals instead (see
    /// ``DisposalsInProgress``).
    func openScopeHoldings() -> [[OpenHolding]] {
        var holdings: [[OpenHolding]] = []
        // As closing does: a listed child is alive while its parent's lock is held (a child let
        // go unlists itself under that lock), and locks are taken parent first.
        withState { state in
            state.children.visit { child in
                guard !child.isClosed else { return }
                holdings.append(child.withState { $0.disposables.map(OpenHolding.init) })
                holdings += child.openScopeHoldings()
            }
        }
        return holdings
    }
}
