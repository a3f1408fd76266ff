/// What one resolution carries down the graph.
struct ResolveState: Sendable {
    /// The scope that owns new transients and holds scoped instances (the root for singletons).
    let scope: ScopeCore
    /// The innermost closure factory under way, when there is one: the path for cycle checks.
    var frame: ResolutionFrame?
    /// State shared by one top-level resolve call, made the first time something needs it.
    var call: CallState?
    /// The singleton being created, when the resolution runs on its behalf.
    var singleton: Entry?
    /// How many services deep the resolution is, to move very deep ones to a fresh stack.
    var depth = 0

    /// Every this many levels a synchronous resolution continues on a new thread's stack.
    static let stackHopInterval = 128

    init(
        scope: ScopeCore,
        frame: ResolutionFrame? = nil,
        call: CallState? = nil,
        singleton: Entry? = nil,
        depth: Int = 0
    ) {
        self.scope = scope
        self.frame = frame
        self.call = call
        self.singleton = singleton
        self.depth = depth
    }

    mutating func sharedCall() -> CallState {
        if let call { return call }
        let call = CallState()
        self.call = call
        return call
    }
}

/// State of one top-level resolve call: its `.graph` instances.
final class CallState: Sendable {
    private let graphInstances = Locked([Int: any InstanceBoxing]())

    func graphInstance(_ index: Int) -> (any InstanceBoxing)? {
        graphInstances.withLock { $0[index] }
    }

    func storeGraphInstance(_ box: any InstanceBoxing, index: Int) {
        graphInstances.withLock { $0[index] = box }
    }
}
