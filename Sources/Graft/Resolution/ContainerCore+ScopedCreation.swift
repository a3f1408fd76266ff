extension ContainerCore {
    /// Creates the `.scoped` instance whose slot of `scope` the caller claimed (see
    /// `Scope+Claims.swift`), publishes it in the scope and wakes any caller that joined it.
    ///
    /// The synchronous request scope's own path: ``createClaimed(_:_:within:by:_:)`` serves
    /// every issuer of a claim through a closure that erases the error, then boxes the instance
    /// again to hand it out. Here the scope is the issuer, the error stays typed and the
    /// instance made is the one returned; the rules (the creation chain, the provisional
    /// instance, settling the claim whatever happens) are the same calls.
    func createScoped<Service: Sendable>(
        _ entry: Entry,
        _ claim: consuming CreationClaim,
        in scope: Scope,
        _ state: borrowing ResolveState
    ) throws(GraftError) -> Service {
        var inner = sharedState(entry, state)
        do {
            let value: Service = try CreationChain.running(&claim, within: CreationChain.current) {
                () throws(GraftError) -> Service in
                try createShowingProvisional(entry, &inner, disposed: true) {
                    scope.setProvisional($0, for: claim)
                }
            }
            scope.finish(claim, .success(InstanceCell.make(value, holdingItself: entry.holdsInstanceItself)), in: self)
            return value
        } catch {
            scope.finish(claim, .failure(error), in: self)
            throw error
        }
    }
}
