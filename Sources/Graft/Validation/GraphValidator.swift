/// Checks a whole graph at once and describes every problem it finds.
///
/// Problems come in a fixed order — conflicting registrations, missing dependencies, unmet
/// module requirements, cycles, captive dependencies, runtime arguments, then eager singletons
/// that need `await` — and within each kind in
/// registration order, so the same graph always gives the same report.
struct GraphValidator {
    let graph: DependencyGraph
    let requirements: [ModuleRequirement]

    /// Every problem in the graph, each once.
    ///
    /// - Parameter buildIsAsync: Whether eager singletons may need `await` (the async `build()`).
    func problems(buildIsAsync: Bool) -> [GraftError] {
        var problems = scopeValuesAlsoRegistered()
        problems += missingDependencies()
        problems += unmetRequirements()
        problems += cycles()
        problems += captiveDependencies()
        problems += runtimeArgumentProblems()
        if !buildIsAsync && graph.hasAsyncFactory {
            problems += eagerSingletonsNeedingAwait()
        }
        return problems
    }

    /// The keys some module requires and nothing registers.
    private var unmetKeys: Set<ServiceKey> {
        // Most graphs have no requirements; they pay nothing here, not even a set of their keys.
        guard !requirements.isEmpty else { return [] }
        let registered = Set(graph.keys)
        return Set(requirements.lazy.map(\.key).filter { !registered.contains($0) })
    }

    /// A dependency on an unmet requirement is reported once, with the requirement: it is one
    /// mistake, and the module's requirement says best who is meant to provide it.
    private func missingDependencies() -> [GraftError] {
        guard !graph.missing.isEmpty else { return [] }
        let unmet = unmetKeys
        let needed = neededLifetimes()
        return graph.missing.filter { !unmet.contains($0.dependency) }.flatMap { dependent, dependency in
            if dependency.isResolver {
                return [resolverDependency(of: dependent)]
            }
            let lifetime = needed[dependency].flatMap { $0 }
            // An adapter (a named reference, a unit of work) is no registration of the user's: its
            // holders are told.
            guard graph.isAdapter(dependent) else {
                return [missingDependency(dependency, of: dependent, lifetime: lifetime)]
            }
            return graph.holders(of: dependent).map {
                adaptedDependencyMissing(dependency, of: $0, via: dependent, lifetime: lifetime)
            }
        }
    }

    /// For each missing key, the lifetime the registration that says how to register it gives:
    /// that of the longest-lived registration that needs it, so following it makes no captive
    /// dependency (one made per resolve needs none, and the key maps to `nil` or to nothing).
    /// Read only when something is missing.
    private func neededLifetimes() -> [ServiceKey: NeededLifetime?] {
        var longest: [ServiceKey: Int] = [:]
        for (dependent, dependency) in graph.missing {
            // What an adapter that opens a scope of its own (`Owned`) reaches lives in that scope,
            // however long its holder lives.
            let holders =
                !graph.isAdapter(dependent)
                ? [dependent] : graph.opensScope(dependent) ? [] : graph.holders(of: dependent)
            for holder in holders where longest[dependency].map({ holdingRank(holder) > holdingRank($0) }) ?? true {
                longest[dependency] = holder
            }
        }
        return longest.mapValues { holder in
            NeededLifetime(graph.lifetime(holder), tag: graph.registrations[holder].scopeTag, holder: graph.key(holder))
        }
    }

    /// `dependency` missing for `dependent`; the path starts at the holder of the collection
    /// `dependent` is in, when it is in one.
    private func missingDependency(
        _ dependency: ServiceKey,
        of dependent: Int,
        lifetime: NeededLifetime?
    ) -> GraftError {
        let dependentKey = graph.key(dependent)
        let lead = graph.pathThroughCollection(to: dependent) ?? [dependent]
        return GraftError(
            .missingDependency,
            "no registration for \(dependency.subject), which \(dependentKey) needs",
            service: dependency.description,
            path: lead.map { graph.key($0).description } + [dependency.description],
            hints: Suggestions.hints(for: dependency, among: graph.userKeys, lifetime: lifetime)
                + collectionHint(lead)
                + ["\(dependentKey) was registered at \(graph.source(dependent))"]
        )
    }

    /// A registration that asks for ``Resolver`` as a service: an autowired initializer that
    /// takes one, or a closure factory that lists it among its `dependencies:`. Registering
    /// `Resolver` is never the fix, so the problem says what is.
    private func resolverDependency(of dependent: Int) -> GraftError {
        let key = graph.key(dependent)
        let takesResolver = graph.registrations[dependent].kind.takesResolver
        return GraftError(
            .missingDependency,
            takesResolver
                ? "\(key.subject) lists Resolver among its dependencies, but Resolver is not a service"
                : "the initializer of \(key.subject) takes a Resolver, which autowiring does not supply",
            service: key.description,
            path: [key.description, ServiceKey((any Resolver).self).description],
            hints: Suggestions.resolverHints(for: key, isClosureFactory: takesResolver)
                + ["\(key) was registered at \(graph.source(dependent))"]
        )
    }

    private func unmetRequirements() -> [GraftError] {
        guard !requirements.isEmpty else { return [] }
        let unmet = unmetKeys
        return requirements.filter { unmet.contains($0.key) }.map { requirement in
            let dependents = graph.missing.filter { $0.dependency == requirement.key }.map { dependent, _ in
                "\(graph.key(dependent)) needs it too (registered at \(graph.source(dependent)))"
            }
            return GraftError(
                .unmetRequirement,
                "\(requirement.module) requires \(requirement.key.subject), which nothing registers",
                service: requirement.key.description,
                path: [requirement.module, requirement.key.description],
                hints: provideHints(for: requirement.key) + dependents
            )
        }
    }

    /// How the app provides what a module requires; never by registering ``Resolver``.
    private func provideHints(for key: ServiceKey) -> [String] {
        guard !key.isResolver else {
            return ["Resolver is not a service: remove the requirement; closure factories receive the resolver"]
        }
        return ["the app provides it: register \(key.typeName) before build(), or install a module that does"]
            + Suggestions.hints(for: key, among: graph.keys, offeringRegistration: false)
    }

    /// One problem per cycle of immediate dependencies, found by an iterative depth-first walk.
    private func cycles() -> [GraftError] {
        var problems: [GraftError] = []
        var reported = Set<[Int]>()
        var state = [UInt8](repeating: 0, count: graph.count)  // 0 new, 1 on stack, 2 done
        var stack: [(node: Int, nextEdge: Int)] = []
        var positionOnStack = [Int](repeating: -1, count: graph.count)
        // A node without edges is on no cycle: it is not walked from (an edge may still reach it).
        for root in 0..<graph.count where state[root] == 0 && !graph.edges.isEmpty(root) {
            stack.append((root, 0))
            state[root] = 1
            positionOnStack[root] = 0
            while let (node, firstEdge) = stack.last {
                // The node's edges are read once per visit, and walked until one leads to a new
                // node: a linear walk that touches each edge once.
                let edges = graph.edges[node]
                var nextEdge = firstEdge
                var descended = false
                while nextEdge < edges.count, !descended {
                    let edge = edges[nextEdge]
                    nextEdge += 1
                    guard edge.isImmediate else { continue }
                    switch state[edge.target] {
                    case 0:
                        stack[stack.count - 1].nextEdge = nextEdge
                        state[edge.target] = 1
                        positionOnStack[edge.target] = stack.count
                        stack.append((edge.target, 0))
                        descended = true
                    case 1:
                        let members = stack[positionOnStack[edge.target]...].map(\.node)
                        if reported.insert(canonical(members)).inserted {
                            problems.append(cycleProblem(members))
                        }
                    default:
                        break
                    }
                }
                if !descended {
                    stack.removeLast()
                    state[node] = 2
                    positionOnStack[node] = -1
                }
            }
        }
        return problems
    }

    /// The cycle rotated to start at its smallest index, so each cycle is reported once.
    private func canonical(_ members: [Int]) -> [Int] {
        guard let start = members.indices.min(by: { members[$0] < members[$1] }) else { return members }
        return Array(members[start...] + members[..<start])
    }

    /// The cycle through `members`, from its canonical start back to it, with where the
    /// registration that closes it (the last member, which the hint names) was made.
    private func cycleProblem(_ members: [Int]) -> GraftError {
        let members = startingAfterRegistration(canonical(members))
        let keys = members.map(graph.key)
        return CycleReport.error(keys + keys.prefix(1), closingSource: members.last.map { "\(graph.source($0))" })
    }

    /// Longer-lived services holding shorter-lived ones, directly or through transients: each
    /// captive of a holder once (two dependencies that reach the same one are one mistake).
    private func captiveDependencies() -> [GraftError] {
        let shortest = shortestLivedThroughTransients()
        var problems: [GraftError] = []
        for holder in 0..<graph.count {
            let holderRank = holdingRank(holder)
            guard holderRank >= Self.scopedRank, !graph.edges.isEmpty(holder) else { continue }
            var reported: [Int] = []
            for edge in graph.edges[holder] {
                let reached = passesThrough(edge.target) ? shortest[edge.target] : own(edge.target)
                guard let reached, reached.rank > 0, reached.rank < holderRank, !reported.contains(reached.node)
                else { continue }
                reported.append(reached.node)
                let path = [holder] + chain(from: edge.target, shortest: shortest)
                problems.append(captiveProblem(holder: holder, captive: reached.node, path: path))
            }
        }
        return problems
    }

    private struct Reach {
        let rank: Int
        let node: Int
        /// The next node on the path when passing through a transient.
        let via: Int?
    }

    /// Whether the captive check looks past `node` to what it reaches: a transient does, as the
    /// holder keeps what it is made from; an adapter that opens a scope of its own does not,
    /// as what it reaches lives in that scope.
    private func passesThrough(_ node: Int) -> Bool {
        graph.lifetime(node).isMadePerResolve && !graph.opensScope(node)
    }

    private func own(_ node: Int) -> Reach? {
        let rank = rank(node)
        return rank > 0 ? Reach(rank: rank, node: node, via: nil) : nil
    }

    // How long an instance of each node lives, for the captive check: ``Lifetime/rank`` spread
    // out to fit the lifetimes between a scope's and a singleton's. A `.scoped(in:)` instance
    // outlives the `.scoped` ones of the scopes under its tagged scope; a scope value, given to
    // a scope and seen by every scope under it, may be given to the tagged scope itself, so a
    // tagged service may hold one (if that scope was not given it, resolving says so). Tagged
    // instances of different tags are not compared: which tag's scopes enclose which is decided
    // where scopes are made, and a resolve that finds no scope with the tag says so.
    private static let scopedRank = 20
    private static let taggedRank = 25
    private static let captiveRanks = [10, scopedRank, taggedRank]

    private func rank(_ node: Int) -> Int {
        let lifetime = graph.lifetime(node)
        guard lifetime.isKeptPerScope else { return lifetime.rank * 10 }
        if graph.registrations[node].scopeTag != nil || graph.registrations[node].kind == .scopeValue {
            return Self.taggedRank
        }
        return Self.scopedRank
    }

    private func holdingRank(_ node: Int) -> Int {
        let lifetime = graph.lifetime(node)
        // Kept longer than its own lifetime says (a `.weak` one): ranked as what keeps it.
        return lifetime.holdingRank > lifetime.rank ? lifetime.holdingRank * 10 : rank(node)
    }

    /// For each transient, the shortest-lived non-transient it reaches through transients.
    private func shortestLivedThroughTransients() -> [Reach?] {
        // Walk backwards from every shorter-lived service through the transients that reach it,
        // shortest-lived first, so each transient keeps the shortest-lived service it reaches.
        // A breadth-first walk over reversed edges is linear and, unlike a single post-order
        // pass, gives the right answer when transients sit on a loop (closed by Lazy/Provider).
        let predecessors = transientPredecessors()
        var result = [Reach?](repeating: nil, count: graph.count)
        for rank in Self.captiveRanks {
            var queue = (0..<graph.count).filter { !passesThrough($0) && self.rank($0) == rank }
            var head = 0
            while head < queue.count {
                let node = queue[head]
                head += 1
                let terminal = result[node]?.node ?? node
                for predecessor in predecessors.of(node) where result[predecessor] == nil {
                    result[predecessor] = Reach(rank: rank, node: terminal, via: node)
                    queue.append(predecessor)
                }
            }
        }
        return result
    }

    /// For each node, the transients with an edge to it, in one flat array (no array per node).
    private struct Predecessors {
        let offsets: [Int]
        let sources: [Int]

        func of(_ node: Int) -> ArraySlice<Int> {
            sources[offsets[node]..<offsets[node + 1]]
        }
    }

    private func transientPredecessors() -> Predecessors {
        var counts = [Int](repeating: 0, count: graph.count + 1)
        let transients = (0..<graph.count).filter { !graph.edges.isEmpty($0) && passesThrough($0) }
        for node in transients {
            for edge in graph.edges[node] { counts[edge.target + 1] += 1 }
        }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        var fill = counts
        var sources = [Int](repeating: 0, count: counts[graph.count])
        for node in transients {
            for edge in graph.edges[node] {
                sources[fill[edge.target]] = node
                fill[edge.target] += 1
            }
        }
        return Predecessors(offsets: counts, sources: sources)
    }

    private func chain(from start: Int, shortest: [Reach?]) -> [Int] {
        var path = [start]
        var node = start
        var seen: Set<Int> = [start]
        while passesThrough(node), let reach = shortest[node], let via = reach.via, seen.insert(via).inserted {
            path.append(via)
            node = via
        }
        return path
    }

    private func captiveProblem(holder: Int, captive: Int, path: [Int]) -> GraftError {
        let holderKey = graph.key(holder)
        let captiveKey = graph.key(captive)
        let holderLifetime = graph.lifetimeLabel(holder)
        let captiveLifetime = graph.lifetimeLabel(captive)
        return GraftError(
            .captiveDependency,
            "captive dependency: \(holderKey) (\(holderLifetime)) depends on \(captiveKey) (\(captiveLifetime))",
            service: holderKey.description,
            path: path.map { graph.key($0).description },
            hints: [
                Lifetime.Kind.outlives(graph.lifetime(holder), holderLifetime, captiveLifetime)
                    + (graph.registrations[captive].kind == .scopeValue
                        ? "; \(captiveKey.typeName) is a scope value, given to each scope, so make "
                            + "\(holderKey.typeName) .scoped or shorter-lived"
                        : graph.isAdapter(captive)
                            ? "; \(captiveKey.typeName) is the state of the scope it is made in, so make "
                                + "\(holderKey.typeName) \(captiveLifetime) or shorter-lived"
                            : "; make \(holderKey.typeName) \(captiveLifetime) or shorter-lived, or make "
                                + "\(captiveKey.typeName) live as long")
            ]
        )
    }

    private func eagerSingletonsNeedingAwait() -> [GraftError] {
        (0..<graph.count).compactMap { node in
            guard graph.lifetime(node).isMadeAtBuild, let cause = graph.asyncCause(node) else { return nil }
            let key = graph.key(node)
            let leased = graph.registrations[cause].kind == .lease
            let reason =
                switch (cause == node, leased) {
                case (true, false): "its factory is async"
                case (false, false): "it depends on \(graph.key(cause)), whose factory is async"
                case (true, true): "it is leased from a with-style API, which lends it only to async code"
                case (false, true): "it depends on \(graph.key(cause)), which is leased from a with-style API"
                }
            return GraftError(
                .needsAwait,
                "eager singleton \(key) needs await to be created: \(reason)",
                service: key.description,
                hints: OverloadHints.forWantOfAwait(
                    call: "build() (or validate())",
                    asyncSpelling: "try await builder.build()",
                    outsideTask: ["build with `try await builder.build()`, which creates it"]
                )
            )
        }
    }
}
