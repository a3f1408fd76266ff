// The pure half of the random-graph test: a seeded generator of registration sets and an
// independent reference model of what Graft should do with them. Nothing here imports Graft,
// so the model cannot borrow the library's own reasoning.

/// The lifetimes the model knows, spelled independently of `Graft.Lifetime`.
enum ModelLifetime: CaseIterable, CustomStringConvertible {
    case transient, singleton, eagerSingleton, scoped, graph, weak

    /// How long an instance lives: a dependency on something shorter-lived (but not a
    /// transient, which belongs to whoever asked, nor a weak one, which lives while held) is
    /// captive.
    var span: Int {
        switch self {
        case .transient, .weak: 0
        case .graph: 1
        case .scoped: 2
        case .singleton, .eagerSingleton: 3
        }
    }

    /// How long an instance may be kept by those it is handed to: a weak instance goes to every
    /// scope and call while anything holds it, a singleton perhaps, so it holds like one.
    var holdingSpan: Int {
        self == .weak ? 3 : span
    }

    var description: String {
        switch self {
        case .transient: "transient"
        case .singleton: "singleton"
        case .eagerSingleton: "eager"
        case .scoped: "scoped"
        case .graph: "graph"
        case .weak: "weak"
        }
    }
}

/// How a service receives one of its dependencies.
enum ModelEdgeKind: CustomStringConvertible {
    case direct, lazy, provider

    var description: String {
        switch self {
        case .direct: ""
        case .lazy: "Lazy "
        case .provider: "Provider "
        }
    }
}

/// How the model's service keys are spelled as registrations: keys below `unnamedCount` are
/// the unnamed registrations of types 0..<8, the others are types 0..<4 registered under the
/// name "b", so one type may be registered with a name, without one, or both.
enum ModelKey {
    static let unnamedCount = 8
    static let count = 12

    static func typeIndex(of key: Int) -> Int {
        key < unnamedCount ? key : key - unnamedCount
    }

    static func name(of key: Int) -> String? {
        key < unnamedCount ? nil : "b"
    }

    /// `S3`, or `S1["b"]` for a named key: how the model prints a key in a report.
    static func label(of key: Int) -> String {
        name(of: key).map { "S\(typeIndex(of: key))[\"\($0)\"]" } ?? "S\(key)"
    }
}

struct ModelEdge {
    /// The key (0..<ModelKey.count) depended on; it may be unregistered.
    let target: Int
    let kind: ModelEdgeKind
}

struct ModelService {
    /// The key (0..<ModelKey.count) this registration answers for.
    let key: Int
    let lifetime: ModelLifetime
    /// Autowired registrations declare every edge, `Lazy`/`Provider` ones included; closure
    /// registrations declare only their direct edges and never touch the deferred ones.
    let autowired: Bool
    let edges: [ModelEdge]

    /// The edges `build()` can see.
    var declaredEdges: [ModelEdge] {
        autowired ? edges : edges.filter { $0.kind == .direct }
    }

    /// The edges resolved before the service is created, in the order its factory resolves them.
    var directEdges: [ModelEdge] {
        edges.filter { $0.kind == .direct }
    }
}

/// One random registration set.
struct ModelGraph: CustomStringConvertible {
    static let poolSize = ModelKey.count

    let seed: UInt64
    /// In registration order; each key at most once.
    let services: [ModelService]

    init(seed: UInt64) {
        self.seed = seed
        var rng = SplitMix64(seed: seed)
        let count = 2 + rng.below(11)
        var keys = Array(0..<Self.poolSize)
        for index in keys.indices.reversed() {
            keys.swapAt(index, rng.below(index + 1))
        }
        let registered = Array(keys.prefix(count))
        // Edges mostly follow a hidden order (no cycle); a few go anywhere (maybe a cycle), and a
        // few point at an unregistered key (a missing dependency).
        var order = registered
        for index in order.indices.reversed() {
            order.swapAt(index, rng.below(index + 1))
        }
        let weights: [(ModelLifetime, Int)] = [
            (.transient, 36), (.singleton, 20), (.eagerSingleton, 8), (.scoped, 18), (.graph, 12), (.weak, 6),
        ]
        var lifetimes: [ModelLifetime] = registered.map { _ in
            var roll = rng.below(100)
            for (candidate, weight) in weights {
                if roll < weight { return candidate }
                roll -= weight
            }
            return .transient
        }
        // Some graphs give each service a lifetime no longer than those it depends on (along the
        // hidden order), so that plenty of graphs are valid and their resolves get checked.
        let sorted = rng.chance(45)
        if sorted {
            let ascending = lifetimes.sorted { $0.holdingSpan < $1.holdingSpan }
            for (position, key) in order.enumerated() {
                lifetimes[registered.firstIndex(of: key) ?? 0] = ascending[position]
            }
        }
        var services: [ModelService] = []
        for (registrationIndex, key) in registered.enumerated() {
            let lifetime = lifetimes[registrationIndex]
            let position = order.firstIndex(of: key) ?? 0
            let edgeCount = rng.below(4)
            var edges: [ModelEdge] = []
            for _ in 0..<edgeCount {
                let target: Int
                let roll = rng.below(100)
                if roll < 3 {
                    target = rng.below(Self.poolSize)
                } else if roll < 9 {
                    target = registered[rng.below(registered.count)]
                } else if position + 1 < order.count {
                    target = order[position + 1 + rng.below(order.count - position - 1)]
                } else {
                    continue
                }
                guard !edges.contains(where: { $0.target == target }) else { continue }
                let kindRoll = rng.below(100)
                let kind: ModelEdgeKind = kindRoll < 76 ? .direct : kindRoll < 88 ? .lazy : .provider
                edges.append(ModelEdge(target: target, kind: kind))
            }
            // Autowiring resolves each parameter by its type alone, so a service that depends on
            // a named registration is registered with a closure. (`rng` is asked either way, so
            // the keys, lifetimes and edges of every seed stay as they were before names.)
            let autowired = rng.chance(50) && edges.allSatisfy { ModelKey.name(of: $0.target) == nil }
            services.append(ModelService(key: key, lifetime: lifetime, autowired: autowired, edges: edges))
        }
        self.services = services
    }

    var description: String {
        let lines = services.map { service in
            let edges = service.edges.map { "\($0.kind)\(ModelKey.label(of: $0.target))" }.joined(separator: ", ")
            let style = service.autowired ? "autowired" : "closure"
            return "\(ModelKey.label(of: service.key)) \(service.lifetime) \(style) -> [\(edges)]"
        }
        return "seed \(seed): " + lines.joined(separator: "; ")
    }

    /// The registration index of each key, or `nil` when unregistered.
    var indexOfKey: [Int?] {
        var result = [Int?](repeating: nil, count: Self.poolSize)
        for (index, service) in services.enumerated() {
            result[service.key] = index
        }
        return result
    }
}

/// What the model predicts `build()` reports.
struct ModelVerdict {
    var missing = 0
    var captive = 0
    /// Cycles of immediate edges: a depth-first report finds at least one per strongly connected
    /// component with a cycle, and never more than there are elementary cycles.
    var cycleRange = 0...0
    /// Immediate edges between registration indices, to check a reported cycle is real.
    var immediate: [Set<Int>] = []

    /// Whether some transient lies on a cycle of declared edges, `Lazy`/`Provider` ones included
    /// (such a cycle is legal when one of its edges is deferred).
    var transientOnCycle = false

    var isValid: Bool { missing == 0 && captive == 0 && cycleRange.upperBound == 0 }
}

extension ModelGraph {
    func verdict() -> ModelVerdict {
        let index = indexOfKey
        var verdict = ModelVerdict()
        // Declared edges between registrations, by registration index.
        var declared: [[(target: Int, kind: ModelEdgeKind)]] = []
        for service in services {
            var edges: [(Int, ModelEdgeKind)] = []
            for edge in service.declaredEdges {
                if let target = index[edge.target] {
                    edges.append((target, edge.kind))
                } else {
                    verdict.missing += 1
                }
            }
            declared.append(edges)
        }
        verdict.immediate = declared.map { Set($0.filter { $0.kind == .direct }.map(\.target)) }
        let all = declared.map { Set($0.map(\.target)) }
        let closure = transitiveClosure(all)
        verdict.transientOnCycle = services.indices.contains {
            services[$0].lifetime == .transient && closure[$0].contains($0)
        }
        let cyclic = cyclicComponents(verdict.immediate)
        verdict.cycleRange = cyclic...max(cyclic, elementaryCycles(verdict.immediate))

        // Captive: a holder at holding span >= 2 reaching, directly or only through transients
        // (along any declared edge, deferred ones too), something with 0 < span < its own.
        for (holder, service) in services.enumerated() where service.lifetime.holdingSpan >= 2 {
            var seen = Set<Int>()
            var stack = declared[holder].map(\.target)
            var captive = false
            while let node = stack.popLast(), !captive {
                guard seen.insert(node).inserted else { continue }
                let span = services[node].lifetime.span
                if services[node].lifetime == .transient {
                    stack += declared[node].map(\.target)
                } else if span > 0 && span < service.lifetime.holdingSpan {
                    captive = true
                }
            }
            if captive { verdict.captive += 1 }
        }
        return verdict
    }

    /// Strongly connected components holding a cycle (more than one node, or a self-loop).
    private func cyclicComponents(_ edges: [Set<Int>]) -> Int {
        let count = edges.count
        let reach = transitiveClosure(edges)
        var assigned = Set<Int>()
        var components = 0
        for node in 0..<count where reach[node].contains(node) && !assigned.contains(node) {
            components += 1
            for other in 0..<count where reach[node].contains(other) && reach[other].contains(node) {
                assigned.insert(other)
            }
        }
        return components
    }

    /// For each node, every node reachable from it by one edge or more.
    private func transitiveClosure(_ edges: [Set<Int>]) -> [Set<Int>] {
        let count = edges.count
        var reach = edges
        // Transitive closure by repeated expansion; graphs have at most 12 nodes.
        var changed = true
        while changed {
            changed = false
            for node in 0..<count {
                let extended = reach[node].reduce(into: reach[node]) { $0.formUnion(reach[$1]) }
                if extended.count != reach[node].count {
                    reach[node] = extended
                    changed = true
                }
            }
        }
        return reach
    }

    /// Simple cycles, each counted once (from its smallest node).
    private func elementaryCycles(_ edges: [Set<Int>]) -> Int {
        var total = 0
        func walk(_ start: Int, _ node: Int, _ onPath: inout Set<Int>) {
            for next in edges[node] {
                if next == start {
                    total += 1
                } else if next > start && !onPath.contains(next) {
                    onPath.insert(next)
                    walk(start, next, &onPath)
                    onPath.remove(next)
                }
            }
        }
        for start in edges.indices {
            var onPath: Set<Int> = [start]
            walk(start, start, &onPath)
        }
        return total
    }
}

/// The instances the model expects one resolve to return: a symbolic token per instance, and
/// the tree of direct dependencies under it.
final class ModelInstance {
    let token: Int
    let key: Int
    var children: [ModelInstance] = []

    init(token: Int, key: Int) {
        self.token = token
        self.key = key
    }
}

/// Simulates resolving from the root (context 0) and from scopes (contexts 1, 2, ...), following
/// the lifetime table of ARCHITECTURE.md.
struct ModelResolver {
    let graph: ModelGraph
    private let index: [Int?]
    private var nextToken = 0
    private var singletons: [Int: ModelInstance] = [:]
    private var scoped: [Int: [Int: ModelInstance]] = [:]

    init(graph: ModelGraph) {
        self.graph = graph
        self.index = graph.indexOfKey
    }

    /// Whether resolving a registration from the root container must fail because it needs a
    /// scoped service.
    func needsScope(_ service: Int) -> Bool {
        var seen = Set<Int>()
        var stack = [service]
        while let node = stack.popLast() {
            guard seen.insert(node).inserted else { continue }
            if graph.services[node].lifetime == .scoped { return true }
            stack += graph.services[node].directEdges.compactMap { index[$0.target] }
        }
        return false
    }

    /// One top-level resolve of registration `service` in `context`.
    mutating func resolve(_ service: Int, context: Int) -> ModelInstance {
        var perCall: [Int: ModelInstance] = [:]
        return make(service, context: context, perCall: &perCall)
    }

    private mutating func make(_ service: Int, context: Int, perCall: inout [Int: ModelInstance]) -> ModelInstance {
        let spec = graph.services[service]
        switch spec.lifetime {
        case .singleton, .eagerSingleton, .weak:
            // The test keeps every instance alive, so a weak one is shared like a singleton.
            if let existing = singletons[service] { return existing }
        case .scoped:
            if let existing = scoped[context]?[service] { return existing }
        case .graph:
            if let existing = perCall[service] { return existing }
        case .transient:
            break
        }
        nextToken += 1
        let instance = ModelInstance(token: nextToken, key: spec.key)
        // A valid graph has no cycle of direct edges, so the recursion ends.
        for edge in spec.directEdges {
            guard let target = index[edge.target] else { continue }
            instance.children.append(make(target, context: context, perCall: &perCall))
        }
        switch spec.lifetime {
        case .singleton, .eagerSingleton, .weak: singletons[service] = instance
        case .scoped: scoped[context, default: [:]][service] = instance
        case .graph: perCall[service] = instance
        case .transient: break
        }
        return instance
    }
}
