/// The resolver a closure factory or activation hook receives: one step of a resolution.
///
/// Frames link to their parent, so the chain is the path of closure factories under way; a
/// factory that would run again inside itself is a cycle, reported instead of recursing forever.
///
/// A frame is lent to one factory and given back when it returns (``lend(_:)`` and
/// ``giveBack(_:)``). While lent it refers to the container, the scope, its parent frame and its
/// call unretained: the resolve that runs the factory keeps them all alive (the parent's factory
/// is still running, further up the same resolve), and retaining them would write to reference
/// counts that other threads share. A frame the factory kept (stored, or handed to another
/// thread) is still referenced when it comes back; it then retains all four for the rest of its
/// life and is never lent again (and so its parent, still lent, is kept in turn when it comes
/// back). A frame nobody kept goes to its thread's ``LendingShelf`` for the next factory, so a
/// closure factory costs no allocation.
///
/// `@unchecked Sendable` is sound: `step` and `shelf` change only in ``lend(_:)``, while the
/// frame is on its thread's shelf or uniquely referenced by the engine's call on that thread, so
/// no other thread can see them change; `retained` is written once, by the engine, and read
/// only by `deinit`.
@usableFromInline
final class ResolutionFrame: Resolver, @unchecked Sendable {
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

    // Unchecked exclusivity: these change only while the frame is its thread's alone (see the
    // type's comment), and the run-time checks would cost more than the rest of lending it.
    /// What the frame is lent for now.
    @exclusivity(unchecked) private var step: Step
    /// What the step refers to, retained once the frame outlives the factory it was lent to.
    @exclusivity(unchecked) private var retained: (ContainerCore, Scope, ResolutionFrame?, CallState?)?

    /// The shelf of the thread the frame was lent on, which a synchronous factory returns it to.
    @exclusivity(unchecked) private var shelf: Unretained<LendingShelf>

    private init(_ step: Step, shelf: Unretained<LendingShelf>) {
        self.step = step
        self.shelf = shelf
    }

    /// A frame for `step`: one from this thread's shelf, or a new one.
    @inline(__always)
    static func lend(_ step: Step) -> ResolutionFrame {
        let shelf = LendingShelf.forThisThread
        guard let object = shelf.with({ $0.take() }) else {
            return ResolutionFrame(step, shelf: shelf)
        }
        // Only frames are ever put on the shelf (see `giveBack`).
        let frame = unsafeDowncast(object, to: ResolutionFrame.self)
        frame.step = step
        frame.shelf = shelf
        return frame
    }

    /// Takes back a frame whose synchronous factory or hook returned (if there was one), on the
    /// thread it was lent on, while its resolve still keeps the container and scope alive.
    ///
    /// The caller's reference moves back onto the shelf (`frame` is left `nil`), so giving a
    /// frame back changes no reference count.
    static func giveBack(_ frame: inout ResolutionFrame?) {
        guard let lent = frame.take() else { return }
        let shelf = lent.shelf
        shelve(lent, on: shelf)
    }

    /// Takes back a frame whose factory returned after awaiting, maybe on another thread than
    /// the one it was lent on: it goes to this thread's shelf.
    static func giveBackAfterAwait(_ frame: inout ResolutionFrame?) {
        guard let lent = frame.take() else { return }
        shelve(lent, on: LendingShelf.forThisThread)
    }

    /// Takes back a frame whose factory returned, while its resolve still keeps the container
    /// and scope alive: a frame nobody kept moves onto `shelf`, one that is kept retains what it
    /// refers to.
    private static func shelve(_ frame: consuming ResolutionFrame, on shelf: Unretained<LendingShelf>) {
        var frame = frame
        guard isKnownUniquelyReferenced(&frame) else {
            frame.retained = (frame.container, frame.scope, frame.parent, frame.call)
            return
        }
        LendingShelf.put(frame, on: shelf)
    }

    /// The container, for resolves that are not on the hot path.
    var container: ContainerCore { step.container.object }
    /// The scope, for resolves that are not on the hot path.
    var scope: Scope { step.scope.object }
    var parent: ResolutionFrame? { step.parent?.object }
    var call: CallState? { step.call?.object }
    /// The entry whose factory or hook received this frame.
    var entryIndex: Int { step.entryIndex }

    var state: ResolveState {
        ResolveState(
            unretainedScope: step.scope,
            frame: self,
            call: call,
            singleton: step.singleton,
            depth: step.depth
        )
    }

    /// The keys from the frame for `index` down to this one, or `nil` when `index` is not on the path.
    func path(from index: Int) -> [ServiceKey]? {
        // Almost every call finds no cycle: walk the unretained links first, touching no
        // reference count, and make the keys only for a cycle.
        // `self` is alive for the call, and each parent's factory runs further up its resolve.
        var step: Unretained<ResolutionFrame>? = Unretained(self)
        while let frame = step {
            let (entryIndex, parent) = frame.with { ($0.entryIndex, $0.step.parent) }
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
            return try step.container.with { try $0.resolve(type, name: name, &state) }
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
            return try step.container.with { try $0.resolveAll(type, &state) }
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
