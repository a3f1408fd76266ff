import Synchronization

/// Names one creation, unique among every creation under way or still awaited: the object
/// that issued it (a coordinator, or a scope claiming its own slot) and that issuer's serial
/// number for it. A creation chain may hold creations of several issuers.
struct CreationID: Hashable, Sendable {
    let issuer: ObjectIdentifier
    let serial: Int
}

/// What claiming a shared instance's slot gives its creator: which creation it is, of which
/// service, filling which slot.
struct CreationClaim: Sendable {
    let id: CreationID
    let key: ServiceKey
    /// The slot the creation fills.
    let slot: SlotID
}

/// The creations a thread or task is running right now, innermost first.
///
/// Kept per thread (synchronous creations) or per task (asynchronous ones), not only passed down
/// a resolution, so that a factory that resolves through the container directly (not only
/// through the resolver it was given) is still recognised as part of the creation it runs in.
///
/// A synchronous creation records itself in its own stack frame, which outlives everything that
/// can read the record (its body runs inside that frame, and a hop to a fresh stack blocks the
/// frame until it returns), so making a singleton or a scoped instance allocates nothing for
/// it. An asynchronous creation may resume on another thread, so it records itself in a
/// task-local object instead.
enum CreationChain {
    /// A synchronous creation's record, in the stack frame of ``running(_:within:_:)``.
    case onStack(UnsafePointer<StackLink>)
    /// An asynchronous creation's record, the task's.
    case inTask(TaskLink)

    /// Plain words only, so recording a creation copies, retains and destroys nothing: the claim
    /// is borrowed from the creator's frame (see ``running(_:within:_:)``), and the parent is
    /// the thread slot's encoding of the enclosing chain (see ``encoded``), which the enclosing
    /// creation keeps alive for longer than this one runs.
    struct StackLink {
        let claim: UnsafePointer<CreationClaim>
        let parent: UnsafeRawPointer?
    }

    /// An asynchronous creation only ever runs inside other asynchronous ones: synchronous code
    /// cannot start one it waits for.
    final class TaskLink: Sendable {
        let claim: CreationClaim
        let parent: TaskLink?

        init(claim: CreationClaim, parent: TaskLink?) {
            self.claim = claim
            self.parent = parent
        }
    }

    /// The creation under way on this thread (synchronous), or else in this task (asynchronous).
    static var current: CreationChain? {
        if let raw = onThread.value { return decode(raw) }
        // While no asynchronous creation runs, no task holds a chain: one load spares the
        // task-local look-up (measured: 150 instructions in every scoped or singleton creation;
        // asking whether a task runs at all costs more, its types being resilient).
        guard asyncCreationsRunning.load(ordering: .relaxed) > 0 else { return nil }
        return inTask.map(CreationChain.inTask)
    }

    /// How many asynchronous creations are under way in the process, each with its chain bound
    /// in its task (see ``running(_:_:)``). Written only around asynchronous creations, which
    /// are rare and cost far more than the two writes.
    ///
    /// A relaxed load is enough: a task that reads it inside its own creation, or inside a
    /// child task started there, is ordered after that creation's increment by the task
    /// itself; any other task has no chain bound, whatever it reads.
    private static let asyncCreationsRunning = Atomic<Int>(0)

    /// ``current``, told what this thread's slot holds when the caller knows it: `known` is a
    /// chain as the slot holds it (``encoded``), as ``running(_:within:_:)`` gave it to its body,
    /// or `0` when unknown. Known, it spares reading the slot.
    static func current(known: UInt) -> CreationChain? {
        if let raw = UnsafeRawPointer(bitPattern: known) { return decode(raw) }
        return current
    }

    /// ``current`` as the thread slot holds it, for carrying it to another thread that runs on
    /// this one's behalf while this one waits (see `StackExtension`).
    static var currentOnThread: UnsafeRawPointer? {
        // The task keeps its link while the chain is read (see `running(_:_:)`).
        onThread.value ?? inTask.map { UnsafeRawPointer(Unretained($0).opaque) + taskTag }
    }

    /// Set around synchronous creations.
    static let onThread = ThreadSlot()

    /// Set around asynchronous creations, which may resume on another thread.
    @TaskLocal private static var inTask: TaskLink?

    /// Marks a task link in the thread slot; a stack link's address is a multiple of its
    /// alignment, so its lowest bit is clear.
    private static let taskTag = 1

    /// The chain as the thread slot holds it: a stack link's address, or a task link's, tagged.
    /// A task link stays alive while its creation runs: the task-local binding holds it.
    var encoded: UnsafeRawPointer {
        switch self {
        case .onStack(let pointer): UnsafeRawPointer(pointer)
        case .inTask(let task): UnsafeRawPointer(Unretained(task).opaque) + Self.taskTag
        }
    }

    private static func decode(_ raw: UnsafeRawPointer) -> CreationChain {
        if Int(bitPattern: raw) & taskTag != 0 {
            return .inTask(Unretained<TaskLink>(opaque: raw - taskTag).object)
        }
        return .onStack(raw.assumingMemoryBound(to: StackLink.self))
    }

    /// Runs the synchronous creation `claim` names, recorded on this thread as running inside
    /// `parent`, the current chain.
    ///
    /// Inlined, with the thread slot's `with`: called from code that is not specialized, each
    /// generic layer costs a call passing type metadata and an indirect result.
    ///
    /// The claim is passed by address (`&claim`): the link borrows it rather than copying it, and
    /// the caller's variable outlives the call, which is the link's whole life.
    ///
    /// `body` is given the new chain as the thread slot holds it (``encoded``), which the slot
    /// holds whenever `body`'s own code runs (nested creations restore it before they return):
    /// resolves nested in this creation on this thread pass it to ``current(known:)``, and to
    /// this function as `known`, what the slot holds, which spares reading it; `0` when unknown.
    @inline(__always)
    static func running<Result, Failure: Error>(
        _ claim: UnsafePointer<CreationClaim>,
        within parent: CreationChain?,
        known: UInt = 0,
        _ body: (_ encoded: UInt) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var link = StackLink(claim: claim, parent: parent?.encoded)
        // The link's address as an argument, valid for the whole call, which is the body's
        // whole run: `withUnsafePointer` with a closure returning `Result` would be called
        // through its generic entry point in code that is not specialized (measured: about 140
        // instructions a creation).
        return try onThread.with(&link, holding: known) { (address) throws(Failure) -> Result in
            try body(UInt(bitPattern: address))
        }
    }

    /// Runs the asynchronous creation `claim` names, recorded in this task as running inside
    /// the current one.
    static func running<Result>(
        _ claim: CreationClaim,
        _ body: () async throws -> Result
    ) async throws -> Result {
        asyncCreationsRunning.add(1, ordering: .relaxed)
        defer { asyncCreationsRunning.subtract(1, ordering: .relaxed) }
        return try await $inTask.withValue(TaskLink(claim: claim, parent: inTask), operation: body)
    }

    /// Calls `body` with each creation, innermost first, until it returns `false`.
    func forEachClaim(_ body: (CreationClaim) -> Bool) {
        var link: CreationChain? = self
        while let current = link {
            switch current {
            case .onStack(let pointer):
                guard body(pointer.pointee.claim.pointee) else { return }
                link = pointer.pointee.parent.map(Self.decode)
            case .inTask(let task):
                guard body(task.claim) else { return }
                link = task.parent.map(CreationChain.inTask)
            }
        }
    }

    func contains(_ id: CreationID) -> Bool {
        var found = false
        forEachClaim { claim in
            found = claim.id == id
            return !found
        }
        return found
    }

    /// The keys from the creation `id` down to this one, outermost first.
    func keys(from id: CreationID) -> [ServiceKey] {
        var keys: [ServiceKey] = []
        forEachClaim { claim in
            keys.append(claim.key)
            return claim.id != id
        }
        return keys.reversed()
    }
}
