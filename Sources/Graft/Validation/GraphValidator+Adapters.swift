/// What the checks say about collections and named references, which Graft adds to the graph
/// as registrations of their own: messages name the user's registrations around them.
extension GraphValidator {
    /// For a path `[holder, collection, item]`, the hint saying where the item is injected.
    func collectionHint(_ lead: [Int]) -> [String] {
        guard lead.count == 3, let adapted = graph.key(lead[1]).type as? any AdaptedDependency.Type else { return [] }
        return [adapted.itemHint(graph.key(lead[2]), heldBy: graph.key(lead[0]))]
    }

    /// `dependency`, which the adapter Graft added as `adapter` needs, is missing: told once for
    /// each registration that holds the adapter, as that registration's problem.
    func adaptedDependencyMissing(
        _ dependency: ServiceKey,
        of holder: Int,
        via adapter: Int,
        lifetime: NeededLifetime?
    ) -> GraftError {
        if graph.key(adapter).type is any NamedReference.Type {
            return namedDependencyMissing(dependency, of: holder, via: adapter)
        }
        let holderKey = graph.key(holder)
        let hint = (graph.key(adapter).type as? any AdaptedDependency.Type)?.itemHint(dependency, heldBy: holderKey)
        return GraftError(
            .missingDependency,
            "no registration for \(dependency.subject), which \(holderKey) needs",
            service: dependency.description,
            path: [holderKey.description, graph.key(adapter).description, dependency.description],
            hints: Suggestions.hints(for: dependency, among: graph.userKeys, lifetime: lifetime)
                + (hint.map { [$0] } ?? [])
                + ["\(holderKey) was registered at \(graph.source(holder))"]
        )
    }

    /// The named registration `dependency`, which `holder` asks for through the named
    /// reference `reference`, is missing: told as `holder`'s missing dependency.
    func namedDependencyMissing(_ dependency: ServiceKey, of holder: Int, via reference: Int) -> GraftError {
        let holderKey = graph.key(holder)
        let name = dependency.name ?? ""
        return GraftError(
            .missingDependency,
            "no registration for \(dependency.subject), which \(holderKey) needs",
            service: dependency.description,
            path: [holderKey.description, dependency.description],
            // The name is spelled by the ServiceName type, so the generic "register it" hint,
            // which spells it as a string, gives way to one that uses the type.
            hints: Suggestions.hints(for: dependency, among: graph.userKeys, offeringRegistration: false)
                + [
                    "\(holderKey.typeName) asks for it with \(graph.key(reference).typeName): register "
                        + "\(dependency.typeName) with name: \(nameSpelling(of: reference)) (\"\(name)\")",
                    "\(holderKey) was registered at \(graph.source(holder))",
                ]
        )
    }

    /// `V12.name` for `Named<Engine, V12>`: how the registration spells the name.
    private func nameSpelling(of reference: Int) -> String {
        guard let named = graph.key(reference).type as? any NamedReference.Type else { return "its name" }
        return "\(named.nameTypeName).name"
    }

    /// `members` of a cycle rotated to start after a user registration, so the hint's
    /// "in X" names one that can take a `Lazy` (never a collection).
    func startingAfterRegistration(_ members: [Int]) -> [Int] {
        guard members.contains(where: graph.isAdapter) else { return members }
        let start = members.indices.first { position in
            let previous = members[(position + members.count - 1) % members.count]
            return !graph.isAdapter(members[position]) && !graph.isAdapter(previous)
        }
        guard let start else { return members }
        return Array(members[start...] + members[..<start])
    }
}

extension DependencyGraph {
    /// The keys the user registered, in registration order: what suggestions list.
    var userKeys: [ServiceKey] { userRegistrations.map(\.key) }
}

/// A named reference, as messages spell the name type it asks with: how validation learns the
/// name type of a `Named` dependency without naming the injection form.
protocol NamedReference {
    /// The ``ServiceName`` type's name: `V12`.
    static var nameTypeName: String { get }
}
