/// Linking with collections and named references: the registrations Graft adds for ``All``,
/// ``ByName`` and ``Named`` dependencies, and how messages read past them.
extension DependencyGraph {
    /// Links `registrations`, adding a registration for every ``AdaptedDependency`` asked for.
    ///
    /// A graph that asks for none is linked once, as before. One that does is linked again
    /// with the added registrations at the end, so every user registration keeps its index; a
    /// new round only runs while an added registration itself asks for one not yet added.
    static func linking(_ registrations: [Registration]) -> DependencyGraph {
        var graph = DependencyGraph(registrations: registrations)
        // Collections and named references are asked for by keys nobody registers, so only a
        // graph with missing keys looks for them, after the linking loop every graph runs.
        guard !graph.missing.isEmpty else { return graph }
        var all = registrations
        var added = Set<ServiceKey>()
        while true {
            let before = all.count
            for (dependent, key) in adapterRequests(in: graph.missing) where added.insert(key).inserted {
                guard let adapted = key.type as? any AdaptedDependency.Type else { continue }
                all.append(adapted.adapter(among: registrations, source: graph.source(dependent)))
            }
            // Each round adds only keys not added before, and types are finite: this ends.
            guard all.count > before else { return graph }
            graph = DependencyGraph(registrations: all).adoptingAdapters(from: registrations.count, answering: added)
        }
    }

    /// Links the dependencies of the added registrations from `first` on that name one exact
    /// registration (a collection's items, shadowed ones too), which linking by key has linked
    /// to their key's winner; kept off the linking loop, which every graph runs.
    static func linkExactDependencies(
        of registrations: [Registration],
        from first: Int,
        _ links: inout SparseRows<Int>,
        _ edges: inout SparseRows<Edge>
    ) {
        for node in first..<registrations.count {
            for (position, declared) in registrations[node].dependencies.enumerated() {
                if let exact = declared.exactRegistration { links[node][position] = exact }
            }
            // An added registration needs all it gathers before it is made.
            edges[node] = links[node].filter { $0 >= 0 }.map { Edge(target: $0, isImmediate: true) }
        }
    }

    /// The missing keys that are a collection or a named reference, which linking answers
    /// by adding a registration. A named `All<T>` is none: nothing could answer for it.
    static func adapterRequests(
        in missing: [(dependent: Int, dependency: ServiceKey)]
    ) -> [(dependent: Int, key: ServiceKey)] {
        missing.filter { $0.dependency.name == nil && $0.dependency.type is any AdaptedDependency.Type }
            .map { ($0.dependent, $0.dependency) }
    }

    /// Whether Graft added `node` for a collection or a named reference.
    func isAdapter(_ node: Int) -> Bool { node >= firstAdapter }

    /// The registrations the user made: what an overriding container starts from, since the
    /// added ones are linked to indexes that overriding may change.
    var userRegistrations: [Registration] {
        firstAdapter == count ? registrations : Array(registrations[..<firstAdapter])
    }

    /// What a diagram shows for an added registration.
    func adapterNote(_ node: Int) -> String? {
        guard isAdapter(node) else { return nil }
        return (key(node).type as? any AdaptedDependency.Type)?.adapterNote
    }

    /// Whether `node` is an adapter that makes what it adapts in a scope of its own (see
    /// ``AdaptedDependency/opensScope``).
    func opensScope(_ node: Int) -> Bool {
        isAdapter(node) && (key(node).type as? any AdaptedDependency.Type)?.opensScope == true
    }

    /// The registrations that hold `adapter` (have an edge to it), in registration order.
    func holders(of adapter: Int) -> [Int] {
        (0..<count).filter { node in edges[node].contains { $0.target == adapter } }
    }

    /// For `node`, reached through a collection, the path from the first registration holding
    /// that collection: `[holder, collection, node]`; `nil` when no collection holds `node`.
    func pathThroughCollection(to node: Int) -> [Int]? {
        guard firstAdapter < count, !isAdapter(node) else { return nil }
        for adapter in firstAdapter..<count where edges[adapter].contains(where: { $0.target == node }) {
            if let holder = holders(of: adapter).first { return [holder, adapter, node] }
        }
        return nil
    }
}
