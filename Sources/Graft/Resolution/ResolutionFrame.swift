import Synchronization

/// The resolver a closure factory or activation hook receives: one step of a resolution.
///
/// Frames link to their parent, so the chain is the path of closure factories under way; a
/// factory that would run again inside itself is a cycle, reported instead of recursing forever.
///
/// A frame is lent to one factory and given back when it returns (``lend(_:from:)`` and
/// ``FrameLoan/giveBack()``). While lent it refers to the container, the scope, its parent frame
/// and its call unretained: the resolve that runs the factory keeps them all alive (the parent's
/// factory is still running, further up the same resolve), and retaining them would write to
/// reference counts that other threads share. A frame the factory kept (stored, or handed to
/// another thread) is still referenced when it comes back; it then retains all four for the rest
/// of its life and is never lent again (and so its parent, still lent, is kept in turn when it
/// comes back). A frame nobody kept goes to its thread's ``LendingShelf`` for the next factory,
/// so a closure factory costs no allocation.
///
/// Sendable as the compiler checks it: every stored property is a `let` of a `Sendable` type.
/// What the frame is lent for is rewritten in place (``renew(_:)``) only while the frame is on its
/// thread's shelf or uniquely referenced by the engine's call on that thread; the cells make each
/// word of it atomic, so that is a rule of the engine, not a condition of memory safety.
@usableFromInline
final class ResolutionFrame: Resolver {
    /// What a frame is lent for.
    struct Step {
        let container: Unretained<ContainerCore>
        let scope: Unretained<Scope>
        let parent: Unretained<ResolutionFrame>?
        let call: Unretained<CallState>?
        /// The entry whose factory or hook receives the frame.
        let entryIndex: Int
        let singleton: Int
        let depth: Int
    }

    /// What the step refers to, retained once a frame outlives the factory it was lent to.
    private final class Kept: Sendable {
        let container: ContainerCore
        let scope: Scope
        let parent: ResolutionFrame?
        let call: CallState?

        init(_ frame: ResolutionFrame) {
            (container, scope, parent, call) = (frame.container, frame.scope, frame.parent, frame.call)
        }
    }

    // The step, a word a cell, each rewritten by `renew` (see the type).
    private let unretainedContainer: UnretainedCell<ContainerCore>
    private let unretainedScope: UnretainedCell<Scope>
    private let unretainedParent: OptionalUnretainedCell<ResolutionFrame>
    private let unretainedCall: OptionalUnretainedCell<CallState>
    private let entry: Atomic<Int>
    private let singleton: Atomic<Int>
    private let depth: Atomic<Int>
    /// Set once the frame outlives the factory it was lent to.
    private let kept = KeptOnce<Kept>()

    private init(_ step: Step) {
        unretainedContainer = UnretainedCell(step.container)
        unretainedScope = UnretainedCell(step.scope)
        unretainedParent = OptionalUnretainedCell(step.parent)
        unretainedCall = OptionalUnretainedCell(step.call)
        entry = Atomic(step.entryIndex)
        singleton = Atomic(step.singleton)
        depth = Atomic(step.depth)
    }

    /// Lends the frame for `step`: only while it is its thread's alone (see the type).
    @inline(__always)
    private func renew(_ step: Step) {
        unretainedContainer.store(step.container)
        unretainedScope.store(step.scope)
        unretainedParent.store(step.parent)
        unretainedCall.store(step.call)
        entry.store(step.entryIndex, ordering: .relaxed)
        singleton.store(step.singleton, ordering: .relaxed)
        depth.store(step.depth, ordering: .relaxed)
    }

    /// The shelves frames are lent from, one per thread.
    private static let shelves = PerThreadShelves<ResolutionFrame>()

    /// This thread's shelf of frames, for ``lend(_:from:)``.
    @available(*, noasync)
    @inline(__always)
    static var shelfForThisThread: Unretained<LendingShelf<ResolutionFrame>> { shelves.forThisThread }

    /// A frame for `step`: one from `shelf`, this thread's, or a new one.
    @inline(__always)
    static func lend(_ step: Step, from shelf: Unretained<LendingShelf<ResolutionFrame>>) -> FrameLoan {
        guard let frame = shelf.with({ $0.take() }) else {
            return FrameLoan(ResolutionFrame(step), from: shelf)
        }
        frame.renew(step)
        return FrameLoan(frame, from: shelf)
    }

    /// Takes back a frame whose factory returned after awaiting, maybe on another thread than
    /// the one it was lent on: it goes to this thread's shelf.
    static func giveBackAfterAwait(_ frame: inout ResolutionFrame?) {
        guard let lent = frame.take() else { return }
        shelve(lent, on: shelfForThisThread)
    }

    /// Takes back a frame whose factory returned, while its resolve still keeps the container
    /// and scope alive: a frame nobody kept moves onto `shelf`, one that is kept retains what it
    /// refers to.
    fileprivate static func shelve(
        _ frame: consuming ResolutionFrame,
        on shelf: Unretained<LendingShelf<ResolutionFrame>>
    ) {
        var frame = frame
        guard isKnownUniquelyReferenced(&frame) else {
            frame.kept.keep(Kept(frame))
            return
        }
        LendingShelf.put(frame, on: shelf)
    }

    /// The container, for resolves that are not on the hot path.
    var container: ContainerCore { unretainedContainer.load().object }
    /// The scope, for resolves that are not on the hot path.
    var scope: Scope { unretainedScope.load().object }
    var parent: ResolutionFrame? { unretainedParent.load()?.object }
    var call: CallState? { unretainedCall.load()?.object }
    /// The entry whose factory or hook received this frame.
    var entryIndex: Int { entry.load(ordering: .relaxed) }

    var state: ResolveState {
        ResolveState(
            unretainedScope: unretainedScope.load(),
            frame: self,
            call: call,
            singleton: singleton.load(ordering: .relaxed),
            depth: depth.load(ordering: .relaxed)
        )
    }

    /// The keys from the frame for `index` down to this one, or `nil` when `index` is not on the path.
    func path(from index: Int) -> [ServiceKey]? {
        // Almost every call finds no cycle: walk the unretained links first, touching no
        // reference count, and make the keys only for a cycle.
        // `self` is alive for the call, and each parent's factory runs further up its resolve.
        var step: Unretained<ResolutionFrame>? = Unretained(self)
        while let frame = step {
            let (entryIndex, parent) = frame.with { ($0.entryIndex, $0.unretainedParent.load()) }
            if entryIndex == index { break }
            step = parent
        }
        guard step != nil else { return nil }
        var keys: [ServiceKey] = []
        var link: ResolutionFrame? = self
        while let frame = link {
            keys.append(container.table.entries[frame.entryIndex].key)
            if frame.entryIndex == index { return keys.reversed() }
            link = frame.parent
        }
        return nil
    }

    @usableFromInline
    func resolve<Service: Sendable>(_ type: Service.Type, name: String?) throws(GraftError) -> Service {
        var state = self.state
        do {
            return try unretainedContainer.load().with { try $0.resolve(type, name: name, &state) }
        } catch {
            throw GraftError.wrapping(error)
        }
    }

    @usableFromInline
    func resolve<Service: Sendable>(_ type: Service.Type, name: String?) async throws(GraftError) -> Service {
        var state = self.state
        return try await container.resolveAsync(type, name: name, &state)
    }

    @usableFromInline
    func resolveAll<Service: Sendable>(_ type: Service.Type) throws(GraftError) -> [Service] {
        var state = self.state
        do {
            return try unretainedContainer.load().with { try $0.resolveAll(type, &state) }
        } catch {
            throw GraftError.wrapping(error)
        }
    }

    @usableFromInline
    func resolveAll<Service: Sendable>(_ type: Service.Type) async throws(GraftError) -> [Service] {
        var state = self.state
        return try await container.resolveAllAsync(type, &state)
    }
}

extension Unretained where Object == ResolutionFrame {
    /// Throws the cycle when `entry`'s closure or hook is already under way above this frame.
    ///
    /// Out of line, and on the unretained frame: the resolve that lends a frame asks on every
    /// lending, and almost never finds a cycle.
    @inline(never)
    func requireNoCycle(entering entry: Entry) throws(GraftError) {
        if let path = object.path(from: entry.index) {
            throw CycleReport.error(path + [entry.key])
        }
    }
}

/// A frame lent to one factory or hook, and the shelf of the thread it was lent on, which a
/// synchronous factory's frame goes back to; or no frame, for a recipe that takes no resolver.
/// A local of the construction that lends the frame: the shelf is its thread's alone, so the
/// loan is not `Sendable`.
///
/// Not optional itself: the construction reads `frame` in place, where reading it through an
/// optional loan copied the reference (a retain and a release per closure factory).
struct FrameLoan {
    /// The frame; `nil` once given back, or when none was lent.
    var frame: ResolutionFrame?
    private let shelf: Unretained<LendingShelf<ResolutionFrame>>?

    /// `frame`, lent from `shelf`.
    init(_ frame: ResolutionFrame, from shelf: Unretained<LendingShelf<ResolutionFrame>>) {
        self.frame = frame
        self.shelf = shelf
    }

    private init() {
        frame = nil
        shelf = nil
    }

    /// No frame: what a construction whose recipe takes no resolver holds.
    static var none: FrameLoan { FrameLoan() }

    /// Takes back a frame whose synchronous factory or hook returned, on the thread it was lent
    /// on, while its resolve still keeps the container and scope alive.
    ///
    /// The loan's reference moves back onto the shelf (`frame` is left `nil`), so giving a frame
    /// back changes no reference count.
    @inline(__always)
    mutating func giveBack() {
        guard let lent = frame.take(), let shelf else { return }
        ResolutionFrame.shelve(lent, on: shelf)
    }
}
