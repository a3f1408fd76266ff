/// The composition a person writes without a container: direct initializer calls, and
/// singletons stored once by the root. This is the baseline, the fastest any container can be.
///
/// The singletons are `let`s made in `init` rather than `lazy var`s: a `lazy var` would need a
/// lock to be shared between threads (scenario 7), and every scenario resolves a singleton
/// that already exists, which is a plain load either way.
///
/// The methods are `@inlinable` so that the benchmarks, in another module, inline them as
/// hand-written code in an app's own module would be.
public final class HandWrittenComposition: Sendable {
    public let settings: AppSettings
    public let sharedD: D

    public init() {
        settings = AppSettings()
        sharedD = D()
    }

    /// The settings, handed out of a call in another module as a resolve hands out a
    /// singleton: the caller owns what it gets, so each call retains the one shared instance
    /// (`graft-scaling`'s "handwritten, returned"). Never inlined or optimized, so that the
    /// retain stays.
    @inline(never) @_optimize(none)
    public func handOutSettings() -> AppSettings { settings }

    /// Scenario 2.
    @inlinable
    public func makeLeaf() -> Leaf { Leaf() }

    /// Scenario 3: every object new.
    @inlinable
    public func makeTransientGraph() -> A {
        A(b: B(d: D()), c: C(d: D()))
    }

    /// Scenario 4: D is the root's singleton.
    @inlinable
    public func makeGraphWithSharedD() -> A {
        A(b: B(d: sharedD), c: C(d: sharedD))
    }

    /// Scenario 5: one request.
    @inlinable
    public func makeRequestScope() -> HandWrittenRequestScope {
        HandWrittenRequestScope(root: self)
    }
}

/// A request's scope written by hand: the context is made on first use and kept for the
/// request, the handler is made anew each time. Closing the scope is letting it go.
public struct HandWrittenRequestScope {
    @usableFromInline
    let root: HandWrittenComposition
    @usableFromInline
    var context: RequestContext?

    @inlinable
    init(root: HandWrittenComposition) {
        self.root = root
        self.context = nil
    }

    @inlinable
    public mutating func requestContext() -> RequestContext {
        if let context { return context }
        let made = RequestContext(settings: root.settings)
        context = made
        return made
    }

    @inlinable
    public mutating func makeHandler() -> RequestHandler {
        RequestHandler(context: requestContext())
    }
}
