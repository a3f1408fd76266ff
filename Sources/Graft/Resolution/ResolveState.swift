/// What one resolution carries down the graph.
@usableFromInline
struct ResolveState: Sendable {
    /// The scope that owns new transients and holds scoped instances (the root for singletons),
    /// unretained.
    // Unretained spares a retain and release per resolve, on a count that every thread
    // resolving from the container shares (the root scope's). It is sound because a
    // `ResolveState` lives only for one resolve call, and whoever starts that call keeps the
    // scope alive until the call returns: a `Container` (its root), a `Scope` (itself), a
    // `ResolutionFrame` (its own state's keeper), or code that got the scope as a value of its
    // own and so starts the resolve through `keeping(_:_:)`, which holds it for the whole call;
    // anything that outlives the call (a frame a factory kept) retains the scope itself.
    @usableFromInline let unretainedScope: Unretained<Scope>
    /// The innermost closure factory under way, when there is one: the path for cycle checks.
    /// Unretained, as the scope: that factory is running further up this same resolve, so its
    /// frame is lent (or kept by its factory) for at least as long as this state is used.
    @usableFromInline var unretainedFrame: Unretained<ResolutionFrame>?
    /// State shared by one top-level resolve call, made the first time something needs it.
    @usableFromInline var call: CallState?
    /// The index of the singleton (or `.weak` instance) being created, when the resolution runs
    /// on its behalf; `-1` otherwise. An index, not the entry, so copying a state retains nothing.
    @usableFromInline var singleton: Int
    /// How many services deep the resolution is, to move very deep ones to a fresh stack.
    @usableFromInline var depth = 0
    /// The creation chain this thread's slot holds while this resolve runs, as its word's bit
    /// pattern (``ChainWord/bitPattern``), when the resolve knows it; `0` when it does not.
    ///
    /// Set only on the state a singleton's synchronous creation makes for its own recipe, to
    /// the chain ``CreationChain/running(_:within:_:)`` gives its body: that state lives only
    /// in that body, on that thread (a hop to a fresh stack carries the slot along), where the
    /// slot holds that chain whenever the resolve's own code runs. So a singleton created
    /// among the recipe's dependencies learns its parent chain without reading the slot. Every
    /// other state starts at `0`, and a state made from another does not copy it.
    @usableFromInline var creation: UInt = 0

    /// Every this many levels a synchronous resolution continues on a new thread's stack.
    @usableFromInline static let stackHopInterval = 128

    /// A state for `scope`, which must be kept alive for the whole resolve by the caller itself:
    /// `self`, a parameter, or a container's root. A scope the caller got as a value (returned
    /// from a call, read from a property) starts its resolve through ``keeping(_:frame:depth:_:)``.
    @inlinable
    init(
        scope: __shared Scope,
        frame: ResolutionFrame? = nil,
        call: CallState? = nil,
        singleton: Int = -1,
        depth: Int = 0
    ) {
        self.init(
            unretainedScope: Unretained(scope),
            frame: frame,
            call: call,
            singleton: singleton,
            depth: depth
        )
    }

    /// A state for `unretainedScope`, which the caller keeps alive for the whole resolve.
    @inlinable
    init(
        unretainedScope: Unretained<Scope>,
        frame: ResolutionFrame? = nil,
        call: CallState? = nil,
        singleton: Int = -1,
        depth: Int = 0
    ) {
        self.unretainedScope = unretainedScope
        // The frame's factory is running further up this resolve (see `unretainedFrame`).
        self.unretainedFrame = frame.map { Unretained($0) }
        self.call = call
        self.singleton = singleton
        self.depth = depth
    }

    /// A state that starts from another's unretained scope and frame, with no call state: no
    /// reference count changes hands.
    @inlinable
    init(
        unretainedScope: Unretained<Scope>,
        unretainedFrame: Unretained<ResolutionFrame>?,
        singleton: Int,
        depth: Int
    ) {
        self.unretainedScope = unretainedScope
        self.unretainedFrame = unretainedFrame
        self.call = nil
        self.singleton = singleton
        self.depth = depth
    }

    /// Runs `body` with a state for `scope`, which this call keeps alive until `body` returns:
    /// how a resolve starts in a scope the caller got as a value of its own, which nothing else
    /// may keep meanwhile (a parent container's scope, which a child scope closing on another
    /// thread lets go).
    static func keeping<Result>(
        _ scope: Scope,
        frame: ResolutionFrame? = nil,
        depth: Int = 0,
        _ body: (inout ResolveState) throws(GraftError) -> Result
    ) throws(GraftError) -> Result {
        // Unretained in the state: this frame's `scope` is what keeps it.
        defer { withExtendedLifetime(scope) {} }
        var state = ResolveState(scope: scope, frame: frame, depth: depth)
        return try body(&state)
    }

    /// ``keeping(_:frame:depth:_:)`` for a resolve that awaits.
    static func keeping<Result>(
        _ scope: Scope,
        frame: ResolutionFrame? = nil,
        depth: Int = 0,
        _ body: (inout ResolveState) async throws(GraftError) -> Result
    ) async throws(GraftError) -> Result {
        // Unretained in the state: this frame's `scope` is what keeps it, across every await.
        defer { withExtendedLifetime(scope) {} }
        var state = ResolveState(scope: scope, frame: frame, depth: depth)
        return try await body(&state)
    }

    /// The scope.
    @inlinable
    var scope: Scope { unretainedScope.object }

    /// The innermost closure factory under way.
    @inlinable
    var frame: ResolutionFrame? { unretainedFrame?.object }

    /// The scope as a construction's owner (see ``Construction/owner``).
    @inlinable
    var owner: Unretained<AnyObject> { unretainedScope.erased }

    @usableFromInline
    mutating func sharedCall() -> CallState {
        if let call { return call }
        let call = CallState()
        self.call = call
        return call
    }
}

/// State of one top-level resolve call: its `.graph` instances.
@usableFromInline
final class CallState: Sendable {
    private let graphInstances = Locked([Int: InstanceCell]())

    @usableFromInline
    func graphInstance(_ index: Int) -> InstanceCell? {
        graphInstances.withLock { $0[index] }
    }

    @usableFromInline
    func storeGraphInstance(_ box: InstanceCell, index: Int) {
        graphInstances.withLock { $0[index] = box }
    }
}
