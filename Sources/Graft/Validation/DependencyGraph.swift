/// The registrations linked into a graph: one node per registration, one edge per declared
/// dependency, each pointing at the registration that wins for its key.
///
/// Linking is the one step between describing and freezing: ``GraphValidator`` and the graph
/// export read this value and create nothing, and freezing builds the runtime table from it.
/// Built in time linear in registrations plus edges. Every walk over it is
/// iterative, so a chain of 10,000 services cannot overflow the stack.
struct DependencyGraph: Sendable {
    struct Edge: Sendable {
        /// The registration index the edge points at.
        let target: Int
        /// Whether the dependent needs the target before it can be created (not `Lazy`/`Provider`).
        let isImmediate: Bool
    }

    /// Per registration, the winning index for each declared dependency, `-1` when unregistered.
    /// Sparse rows: most registrations declare no dependency.
    let links: SparseRows<Int>
    /// Per registration, the edges to registered dependencies (aliases point at their target).
    let edges: SparseRows<Edge>
    /// Declared dependencies nobody registers: (registration, dependency key).
    let missing: [(dependent: Int, dependency: ServiceKey)]
    /// Every injected ``Factory``: which registration, which parameter, the argument types it
    /// passes. Few graphs have any; the runtime-argument checks read them.
    let factories: [(dependent: Int, position: Int, arguments: [ServiceKey])]
    /// The registrations that take runtime arguments, in registration order.
    let argumentTakers: [Int]
    /// Where the registrations Graft added for collections and named references start; every
    /// registration from here on is one (see `DependencyGraph.linking`).
    let firstAdapter: Int
    /// For each registration, the registration whose async factory makes it need `await`
    /// (itself, or one reached through immediate dependencies), or `nil`.
    /// Stored as 32-bit indexes, `-1` for none: 4 bytes per registration instead of 16; and
    /// empty when no factory is async, as in most graphs: then no registration needs `await`.
    private var asyncCauses: [Int32] = []
    /// The registrations whose dependencies are not all plain (see ``dependenciesArePlain(of:)``),
    /// in increasing order. Linking decides it while it looks each key up anyway, so an entry
    /// made later need not look again; and most graphs have none, so a registration pays no
    /// byte for the answer.
    private var nonPlainNodes: [Int32] = []

    /// Whether any registration's factory is async.
    var hasAsyncFactory: Bool { !asyncCauses.isEmpty }

    /// The registration whose async factory makes `node` need `await`, or `nil`.
    func asyncCause(_ node: Int) -> Int? {
        guard !asyncCauses.isEmpty else { return nil }
        let cause = asyncCauses[node]
        return cause < 0 ? nil : Int(cause)
    }

    /// The registrations it was linked from.
    let registrations: [Registration]
    /// Which registration answers for each key, and each type's registrations.
    let index: ServiceIndex

    /// Links `registrations`.
    init(registrations: [Registration]) {
        self.firstAdapter = registrations.count
        let serviceIndex = ServiceIndex(registrations: registrations)
        self.registrations = registrations
        self.index = serviceIndex
        var links = SparseRows<Int>()
        var edges = SparseRows<Edge>()
        var missing: [(Int, ServiceKey)] = []
        var factories: [(Int, Int, [ServiceKey])] = []
        var argumentTakers: [Int] = []
        var nonPlainNodes: [Int32] = []
        links.reserveCapacity(registrations.count)
        edges.reserveCapacity(registrations.count)
        for index in registrations.indices {
            // Only the dependencies are read: copying a whole registration costs a retain per field.
            let declaredDependencies = registrations[index].dependencies
            guard !declaredDependencies.isEmpty else {
                links.append([])
                edges.append([])
                continue
            }
            var entryLinks: [Int] = []
            var entryEdges: [Edge] = []
            entryLinks.reserveCapacity(declaredDependencies.count)
            entryEdges.reserveCapacity(declaredDependencies.count)
            var isPlain = true
            for (position, declared) in declaredDependencies.enumerated() {
                if declared.isArgument {
                    // The caller passes it: no edge, and nothing is missing.
                    if argumentTakers.last != index { argumentTakers.append(index) }
                    entryLinks.append(-1)
                    isPlain = false
                    continue
                }
                if let target = serviceIndex.winner(for: declared.key) {
                    // A registered key is a plain dependency: nothing to classify.
                    entryLinks.append(target)
                    entryEdges.append(Edge(target: target, isImmediate: true))
                    continue
                }
                // A parameter whose own key nobody registers may be a `Lazy`, a `Provider` or an
                // optional; a key named outright stays plain (and, if missing, is reported).
                if declared.isParameter { isPlain = false }
                let dependency = Dependency.linked(declared, isRegistered: false)
                if let arguments = dependency.factoryArguments {
                    factories.append((index, position, arguments))
                }
                if let target = serviceIndex.winner(for: dependency.key) {
                    entryLinks.append(target)
                    entryEdges.append(Edge(target: target, isImmediate: dependency.isImmediate))
                } else {
                    entryLinks.append(-1)
                    // An optional `Resolver` would silently be `nil`: it is reported like a missing one.
                    if dependency.kind != .optional || dependency.key.isResolver {
                        missing.append((index, dependency.key))
                    }
                }
            }
            links.append(entryLinks)
            edges.append(entryEdges)
            if !isPlain { nonPlainNodes.append(Int32(index)) }
        }
        self.links = links
        self.edges = edges
        self.missing = missing
        self.factories = factories
        self.argumentTakers = argumentTakers
        self.nonPlainNodes = nonPlainNodes
        self.asyncCauses = computeAsyncCauses()
    }

    var count: Int { registrations.count }

    /// The dependencies of `node` as linking classifies them: for the runtime, which asks once
    /// per entry, when the entry is first used.
    ///
    /// Linking already found each dependency's entry: a parameter's own key is registered
    /// exactly when the entry it links to was registered under that key, so no key is hashed.
    func dependencies(of node: Int) -> [Dependency] {
        let declared = registrations[node].dependencies
        let targets = links[node]
        return declared.indices.map { position in
            Dependency.linked(declared[position], isRegistered: isRegistered(declared[position], targets[position]))
        }
    }

    /// Whether every dependency of `node` links as a plain one (``Dependency/Kind/direct``),
    /// answered without making them: no runtime argument, and no parameter that its own key
    /// leaves unregistered (which may be a `Lazy`, a `Provider` or an optional). Linking
    /// recorded the others, so this is a search of a short list, usually an empty one.
    func dependenciesArePlain(of node: Int) -> Bool {
        guard !nonPlainNodes.isEmpty else { return true }
        let wanted = Int32(node)
        var low = 0
        var high = nonPlainNodes.count
        while low < high {
            let middle = (low + high) / 2
            if nonPlainNodes[middle] < wanted { low = middle + 1 } else { high = middle }
        }
        return low == nonPlainNodes.count || nonPlainNodes[low] != wanted
    }

    /// Whether the registration `target` (`-1` for none), which linking found for `declared`,
    /// answers for `declared`'s own key.
    private func isRegistered(_ declared: DeclaredDependency, _ target: Int) -> Bool {
        target >= 0 && registrations[target].key == declared.key
    }

    /// The runtime argument types of `node`, in the order callers pass them.
    func arguments(of node: Int) -> [ServiceKey] {
        registrations[node].dependencies.filter(\.isArgument).sorted { $0.argument < $1.argument }.map(\.key)
    }

    // What the checks and pictures read of each node, straight from its registration.

    func key(_ node: Int) -> ServiceKey { registrations[node].key }

    func lifetime(_ node: Int) -> Lifetime.Kind { registrations[node].lifetime }

    /// The lifetime as messages and pictures spell it: `.scoped(in: Session)` for a tagged one.
    func lifetimeLabel(_ node: Int) -> String { registrations[node].lifetimeLabel }

    func source(_ node: Int) -> SourceLocation { registrations[node].source }

    /// Every key, in registration order: for messages.
    var keys: [ServiceKey] { registrations.map(\.key) }

    /// How a registration makes its instance, for pictures: `instance`, `alias`, `async` or nil.
    func factoryNote(_ node: Int) -> String? {
        let decorators = registrations[node].activations.filter { $0.role == .decorator }.count
        let notes = [
            adapterNote(node),
            arguments(of: node).isEmpty ? nil : "arguments \(arguments(of: node).typeList)",
            kindNote(node),
            decorators == 0 ? nil : (decorators == 1 ? "decorated" : "decorated ×\(decorators)"),
        ].compactMap { $0 }
        return notes.isEmpty ? nil : notes.joined(separator: ", ")
    }

    private func kindNote(_ node: Int) -> String? {
        switch registrations[node].kind {
        case .instance: "instance"
        case .parent: "parent"
        case .alias: "alias"
        case .scopeValue: "scope value"
        case .asyncClosure, .asyncAutowired: "async"
        case .lease: "leased"
        case .closure, .autowired: nil
        }
    }

    /// Marks the registrations from `first` on as added by Graft (see `DependencyGraph.linking`):
    /// links their exact dependencies, drops what they answer from ``missing``, and works out
    /// again which registrations need `await`.
    func adoptingAdapters(from first: Int, answering answered: Set<ServiceKey>) -> DependencyGraph {
        var links = links
        var edges = edges
        Self.linkExactDependencies(of: registrations, from: first, &links, &edges)
        var graph = DependencyGraph(
            registrations: registrations,
            index: index,
            links: links,
            edges: edges,
            missing: missing.filter { !answered.contains($0.dependency) },
            factories: factories,
            argumentTakers: argumentTakers,
            firstAdapter: first
        )
        graph.nonPlainNodes = nonPlainNodes
        graph.asyncCauses = graph.computeAsyncCauses()
        return graph
    }

    /// The graph with `nodes` linked to the exact registrations their dependencies name, as an
    /// adapter's are: a child container's proxies, whose keys a child registration may shadow.
    func linkingExactly(_ nodes: Range<Int>) -> DependencyGraph {
        guard !nodes.isEmpty else { return self }
        var links = links
        var edges = edges
        for node in nodes {
            for (position, declared) in registrations[node].dependencies.enumerated() {
                if let exact = declared.exactRegistration { links[node][position] = exact }
            }
            edges[node] = links[node].filter { $0 >= 0 }.map { Edge(target: $0, isImmediate: true) }
        }
        var graph = DependencyGraph(
            registrations: registrations,
            index: index,
            links: links,
            edges: edges,
            missing: missing.filter { !nodes.contains($0.dependent) },
            factories: factories,
            argumentTakers: argumentTakers,
            firstAdapter: firstAdapter
        )
        graph.nonPlainNodes = nonPlainNodes
        graph.asyncCauses = asyncCauses
        return graph
    }

    /// A graph of parts already linked: for ``adoptingAdapters(from:answering:)``.
    private init(
        registrations: [Registration],
        index: ServiceIndex,
        links: SparseRows<Int>,
        edges: SparseRows<Edge>,
        missing: [(dependent: Int, dependency: ServiceKey)],
        factories: [(dependent: Int, position: Int, arguments: [ServiceKey])],
        argumentTakers: [Int],
        firstAdapter: Int
    ) {
        self.registrations = registrations
        self.index = index
        self.links = links
        self.edges = edges
        self.missing = missing
        self.factories = factories
        self.argumentTakers = argumentTakers
        self.firstAdapter = firstAdapter
    }

    private func computeAsyncCauses() -> [Int32] {
        guard registrations.indices.contains(where: { registrations[$0].kind.isAsync }) else { return [] }
        var causes = [Int32](repeating: -1, count: count)
        for node in postOrder() {
            if registrations[node].kind.isAsync {
                causes[node] = Int32(node)
                continue
            }
            for edge in edges[node] where edge.isImmediate && causes[edge.target] >= 0 {
                causes[node] = causes[edge.target]
                break
            }
        }
        return causes
    }

    /// Every node, each after the nodes its immediate edges reach (the dependencies it needs
    /// before it is created); cycles are cut where met.
    private func postOrder() -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(count)
        var state = [UInt8](repeating: 0, count: count)  // 0 new, 1 on stack, 2 done
        var stack: [(node: Int, nextEdge: Int)] = []
        for root in 0..<count where state[root] == 0 {
            stack.append((root, 0))
            state[root] = 1
            while let (node, nextEdge) = stack.last {
                let nodeEdges = edges[node]
                if nextEdge < nodeEdges.count {
                    stack[stack.count - 1].nextEdge += 1
                    let edge = nodeEdges[nextEdge]
                    if edge.isImmediate && state[edge.target] == 0 {
                        state[edge.target] = 1
                        stack.append((edge.target, 0))
                    }
                } else {
                    stack.removeLast()
                    state[node] = 2
                    order.append(node)
                }
            }
        }
        return order
    }
}
