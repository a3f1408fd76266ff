/// A child's graph: its own registrations over the parent's, linked and checked like `build()`'s.
///
/// The child's graph does not copy the parent's. It holds, before the child's registrations, a
/// *proxy* for each parent registration the child can reach: one that hands out the parent's
/// instance (``FactoryKind/parent``, made by the parent, never cached or disposed by the child).
/// A proxy carries its registration's key and lifetime, so the checks see the parent's services
/// as they are; a parent transient's proxy also mirrors the transient's dependencies, down to
/// the first service that is not transient, so that a captive dependency through it is found
/// with its whole path. The proxies come first so that a child's registration of the same key
/// wins, and every registration of a proxied type is proxied, in the parent's order, so that a
/// collection in the child holds the parent's registrations, then the child's.
///
/// What the child neither registers nor depends on is not proxied: a resolve of it goes to the
/// parent at run time (``ParentLink``). Linking therefore costs time in proportion to the
/// child's registrations and the parent registrations they reach, not to the parent's size.
struct ChildOverlay {
    /// A parent registration the child can reach: registration `node` of the ancestor `level`
    /// steps up (0, the parent; 1, its parent…).
    struct Reached: Hashable, Comparable {
        let level: Int
        let node: Int

        /// The farthest ancestor's first, each ancestor's in its registration order.
        static func < (lhs: Reached, rhs: Reached) -> Bool {
            (lhs.level, rhs.node) > (rhs.level, lhs.node)
        }

        /// One word for sets and dictionaries, which then hash once.
        var packed: Int { level << 40 | node }
    }

    /// The child's graph: the scope link, the proxies, the child's registrations, the adapters.
    let graph: DependencyGraph
    /// Per proxy (from index 1), the parent registration it stands for.
    let proxied: [Reached]
    /// The ancestors, the parent first.
    let ancestors: [ContainerCore]
    /// How many registrations come before the child's: the scope link and the proxies.
    var childStart: Int { proxied.count + 1 }

    init(parent: ContainerCore, child: [Registration], hooks: [LifecycleHook], link: ParentLink) {
        let ancestors = Self.ancestors(of: parent)
        let tables = ancestors.map(\.table)
        let reached = Self.parentNodes(reachedBy: child, in: tables, alsoReaching: hooks.map(\.key.id))
        var registrations: [Registration] = [ParentScopeLink.registration(link)]
        registrations.reserveCapacity(1 + reached.count + child.count)
        var mirrorsDependencies = false
        for item in reached {
            var dependencies: [DeclaredDependency] = []
            // A transient's proxy mirrors its dependencies, for the captive check to see through.
            if tables[item.level].graph.lifetime(item.node).isMadePerResolve {
                dependencies = Self.mirroredDependencies(of: item, in: tables[item.level].graph, among: reached)
                mirrorsDependencies = mirrorsDependencies || !dependencies.isEmpty
            }
            // A registration that takes runtime arguments takes them through its proxy too.
            if !tables[item.level].graph.argumentTakers.isEmpty {
                dependencies += tables[item.level].graph.registrations[item.node].dependencies.filter(\.isArgument)
            }
            registrations.append(Self.proxy(for: item, of: ancestors[item.level], dependencies: dependencies))
        }
        registrations += child
        let linked = DependencyGraph.linking(registrations)
        self.graph = mirrorsDependencies ? linked.linkingExactly(1..<(1 + reached.count)) : linked
        self.proxied = reached
        self.ancestors = ancestors
    }

    /// The parent, its parent, and so on.
    static func ancestors(of parent: ContainerCore) -> [ContainerCore] {
        var chain: [ContainerCore] = []
        var next: ContainerCore? = parent
        while let core = next {
            chain.append(core)
            next = core.table.parent?.core
        }
        return chain
    }

    /// `item`'s dependencies, each linked to the proxy of the exact registration it depends on.
    private static func mirroredDependencies(
        of item: Reached,
        in graph: DependencyGraph,
        among reached: [Reached]
    ) -> [DeclaredDependency] {
        targets(of: item.node, in: graph).compactMap { target in
            // `reached` is sorted, so a proxy's position is found by bisection.
            let wanted = Reached(level: item.level, node: target)
            var low = 0
            var high = reached.count
            while low < high {
                let middle = (low + high) / 2
                if reached[middle] < wanted { low = middle + 1 } else { high = middle }
            }
            guard low < reached.count, reached[low] == wanted else { return nil }
            return DeclaredDependency(registration: low + 1, key: graph.key(target))
        }
    }

    /// The ancestors' registrations the child can reach, the farthest ancestor's first: every
    /// registration of each type the child registers or depends on, from the nearest ancestor
    /// that has the type (whose graph holds every registration of it, a child's graph holding
    /// its parent's as proxies), and, through transients, what those depend on.
    static func parentNodes(
        reachedBy child: [Registration],
        in tables: [RegistrationTable],
        alsoReaching types: [ObjectIdentifier] = []
    ) -> [Reached] {
        // Sized for a few types per registration: growing a dictionary costs more than its
        // lookups. The graphs are read in place (`tables[level].graph…`): a local copy of one
        // would retain each of its arrays.
        var typeLevel = [ObjectIdentifier: Int](minimumCapacity: child.count * 4)
        var seen = Set<Int>(minimumCapacity: child.count * 4)
        var reached: [Reached] = []
        var work: [Reached] = []
        /// Adds every registration of type `id` from the nearest ancestor from `level` up
        /// that has one, unless the type was added already; whether an ancestor has one.
        @discardableResult
        func reach(_ id: ObjectIdentifier, from level: Int = 0) -> Bool {
            if typeLevel[id] != nil { return true }
            for level in level..<tables.count {
                let group = tables[level].graph.index.group(ofType: id)
                guard !group.isEmpty else { continue }
                typeLevel[id] = level
                let firstAdapter = tables[level].graph.firstAdapter
                for node in group where node < firstAdapter {
                    let item = Reached(level: level, node: Int(node))
                    if seen.insert(item.packed).inserted {
                        reached.append(item)
                        work.append(item)
                    }
                }
                return true
            }
            return false
        }
        // The types the child's lifecycle hooks name, so that a hook on a parent's service is
        // found as such.
        for id in types { reach(id) }
        for registration in child {
            reach(registration.key.id)
            for declared in registration.dependencies where !declared.isArgument {
                // Most dependencies are a plain type an ancestor registers: no cast is needed.
                if reach(declared.key.id) { continue }
                let key = Dependency.linked(declared, isRegistered: false).key
                if let adapted = key.type as? any AdaptedDependency.Type {
                    reach(adapted.itemType)
                } else if key.id != declared.key.id {
                    reach(key.id)
                }
            }
        }
        while let item = work.popLast() {
            guard tables[item.level].graph.lifetime(item.node).isMadePerResolve else { continue }
            for target in targets(of: item.node, in: tables[item.level].graph) {
                reach(tables[item.level].graph.key(target).id, from: item.level)
            }
        }
        return reached.sorted()
    }

    /// The registrations `node` depends on in its graph, looking through the collections and
    /// named references Graft added there (a proxy of one would answer in the child for a
    /// collection of the parent's items alone).
    static func targets(of node: Int, in graph: DependencyGraph) -> [Int] {
        var targets: [Int] = []
        var pending = graph.edges[node].map(\.target)
        var seen = Set<Int>()
        while let target = pending.popLast() {
            guard seen.insert(target).inserted else { continue }
            if graph.isAdapter(target) {
                pending += graph.edges[target].map(\.target)
            } else {
                targets.append(target)
            }
        }
        return targets.sorted()
    }

    /// The registration that stands in the child for `owner`'s registration `reached`.
    static func proxy(for reached: Reached, of owner: ContainerCore, dependencies: [DeclaredDependency]) -> Registration
    {
        let registration = owner.table.graph.registrations[reached.node]
        let node = reached.node
        let hops = reached.level + 1
        func make<Service: Sendable>(_ type: Service.Type) -> Registration {
            Registration(
                type,
                name: registration.key.name,
                lifetime: registration.lifetime,
                recipe: Recipe(.parent) { construction in
                    let service = try ParentLink.make(node, of: owner, hops: hops, as: Service.self, for: construction)
                    try construction.deliver(service)
                },
                dependencies: dependencies,
                fileID: registration.source.fileID,
                line: Int(registration.source.line)
            )
        }
        return make(registration.serviceType)
    }

    /// A problem for each parent service the child's registrations depend on that needs `await`
    /// and does not exist yet: a child hands its parent's services out synchronously.
    func parentServicesNeedingAwait(in graph: DependencyGraph) -> [GraftError] {
        var problems: [GraftError] = []
        for dependent in childStart..<graph.count {
            for edge in graph.edges[dependent] where edge.isImmediate && edge.target > 0 && edge.target < childStart {
                let reached = proxied[edge.target - 1]
                let owner = ancestors[reached.level]
                guard owner.table.graph.asyncCause(reached.node) != nil, owner.existingInstance(of: reached.node) == nil
                else { continue }
                let key = graph.key(edge.target)
                problems.append(
                    GraftError(
                        .needsAwait,
                        "\(graph.key(dependent)) depends on \(key) of the parent container, which needs await",
                        service: graph.key(dependent).description,
                        path: [graph.key(dependent).description, key.description],
                        hints: [
                            "a child hands out its parent's services without await: make \(key.typeName) a "
                                + "singleton of the parent and make the child with `try await makeChild`, "
                                + "which creates it first"
                        ]
                    )
                )
            }
        }
        return problems
    }
}

extension DependencyGraph {
    /// Whether a diagram shows `node`: all but the scope link every child has, which nothing
    /// depends on in the graph (see ``ParentScopeLink``).
    func isShown(_ node: Int) -> Bool {
        registrations[node].key.id != ObjectIdentifier(ParentScopeLink.self)
    }
}
