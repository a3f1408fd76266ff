/// The services a container starts and stops, in the order it starts them: each after
/// everything it depends on, directly or not.
///
/// Made by `build()` from the linked graph and the builder's hooks, once; the container reads it
/// when it starts and when it shuts down. Stopping walks it backwards, so a service stops before
/// what it depends on.
struct LifecyclePlan: Sendable {
    /// One service with hooks, and its hooks in the order they were added.
    struct Service: Sendable {
        /// The registration's index in the graph (and the runtime table).
        let node: Int
        let key: ServiceKey
        var starts: [LifecycleHook] = []
        var stops: [LifecycleHook] = []
        var runs: [LifecycleHook] = []

        /// Whether `start()` has anything to do for it: start hooks or a `run()`.
        var isStarted: Bool { !starts.isEmpty || !runs.isEmpty }
    }

    /// The hooks as the builder collected them, for a builder made again (``Container/overriding(_:)-3oq4e``).
    let hooks: [LifecycleHook]
    /// Dependencies first.
    let services: [Service]

    static let empty = LifecyclePlan(hooks: [], services: [])

    /// Whether any service has a hook: a container without one starts and stops at no cost.
    var isEmpty: Bool { services.isEmpty }

    /// The plan for `hooks` over `graph`; a hook on a service that is not registered, or that is
    /// not a singleton, is left out: ``problems(hooks:graph:)`` reports it.
    init(hooks: [LifecycleHook], graph: DependencyGraph) {
        var byNode: [Int: Service] = [:]
        for hook in hooks {
            guard let node = graph.index.winner(for: hook.key), Self.canHaveHooks(graph.lifetime(node)) else {
                continue
            }
            var service = byNode[node] ?? Service(node: node, key: hook.key)
            switch hook.kind {
            case .start: service.starts.append(hook)
            case .stop: service.stops.append(hook)
            case .run: service.runs.append(hook)
            }
            byNode[node] = service
        }
        let order = Self.dependenciesFirst(from: byNode.keys.sorted(), edges: graph.edges)
        self.init(hooks: hooks, services: order.compactMap { byNode[$0] })
    }

    private init(hooks: [LifecycleHook], services: [Service]) {
        self.hooks = hooks
        self.services = services
    }

    /// A hook runs once per container, so only what the root container keeps can have one.
    static func canHaveHooks(_ lifetime: Lifetime.Kind) -> Bool {
        lifetime.isKeptByTheContainer
    }

    /// `roots` and everything they reach, each after what it reaches (every edge counts, `Lazy`
    /// and `Provider` too: a service may use them as soon as it starts); cycles are cut where met.
    /// Iterative, so a long chain cannot overflow the stack.
    private static func dependenciesFirst(from roots: [Int], edges: SparseRows<DependencyGraph.Edge>) -> [Int] {
        var order: [Int] = []
        var visited = Set<Int>()
        var stack: [(node: Int, nextEdge: Int)] = []
        for root in roots where visited.insert(root).inserted {
            stack.append((root, 0))
            while let (node, nextEdge) = stack.last {
                if nextEdge < edges[node].count {
                    stack[stack.count - 1].nextEdge += 1
                    let target = edges[node][nextEdge].target
                    if visited.insert(target).inserted { stack.append((target, 0)) }
                } else {
                    stack.removeLast()
                    order.append(node)
                }
            }
        }
        return order
    }
}

extension LifecyclePlan {
    /// A build problem for each hook on a service that is not registered or is not a singleton.
    static func problems(hooks: [LifecycleHook], graph: DependencyGraph) -> [GraftError] {
        hooks.compactMap { hook in
            guard let node = graph.index.winner(for: hook.key) else {
                return GraftError(
                    .invalidLifecycleHook,
                    "\(hook.kind.rawValue) for \(hook.key) (\(hook.source)), which is not registered",
                    service: hook.key.description,
                    hints: ["register \(hook.key) with lifetime: .singleton, or remove the \(hook.kind.rawValue)"]
                )
            }
            let lifetime = graph.lifetime(node)
            guard !canHaveHooks(lifetime) else { return nil }
            return GraftError(
                .invalidLifecycleHook,
                "\(hook.kind.rawValue) for \(hook.key) (\(hook.source)), which is \(lifetime), not a singleton",
                service: hook.key.description,
                hints: [
                    "a container starts and stops each service once, so only a .singleton or .eagerSingleton "
                        + "can have a \(hook.kind.rawValue); register \(hook.key) (\(graph.source(node))) "
                        + "with lifetime: .singleton"
                ]
            )
        }
    }
}
