/// Registrations that cannot both hold: a type declared as a scope value (each scope is given
/// one) and also registered as a service (a factory makes one).
extension GraphValidator {
    /// Each type declared with `registerScopeValue` that is also registered, unnamed, as a
    /// service: whichever came last answers for it, so either every scope made with
    /// `makeScope(providing:)` fails, or the service's factory never runs. Only types registered
    /// more than once can be one, so a graph of lone registrations pays nothing here.
    func scopeValuesAlsoRegistered() -> [GraftError] {
        var problems: [GraftError] = []
        for record in graph.index.types where record.count > 1 {
            let members = graph.index.grouped[Int(record.groupStart)..<Int(record.groupStart + record.count)]
            var declared: Int?
            var services: [Int] = []
            for member in members.map(Int.init) where graph.registrations[member].name == nil {
                switch graph.registrations[member].kind {
                case .scopeValue: declared = declared ?? member
                case .parent: break
                default: services.append(member)
                }
            }
            guard let declared, !services.isEmpty else { continue }
            problems.append(scopeValueAlsoRegistered(declared: declared, services: services))
        }
        return problems
    }

    private func scopeValueAlsoRegistered(declared: Int, services: [Int]) -> GraftError {
        let key = graph.key(declared)
        let type = key.typeName
        let sites = services.map { "\(graph.source($0))" }.joined(separator: ", ")
        return GraftError(
            .conflictingRegistration,
            "\(type) is declared as a scope value and also registered as a service",
            service: key.description,
            hints: [
                "declared as a scope value at \(graph.source(declared)); registered as a service at \(sites)",
                "keep one: if each scope is given its \(type) (makeScope(providing:), or a web integration's "
                    + "request values), remove the service registration; if a factory makes it, remove "
                    + "registerScopeValue(\(type).self)",
            ]
        )
    }
}
