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
///
/// Which of the two a chain is decides how long it may be kept, and the compiler keeps the two
/// apart: the thread's chain is read only through ``ChainSource/thisThread(known:)`` and
/// ``current()``, which are `noasync`, so no asynchronous function can read it, let alone hold it
/// across a suspension (after which it may run on another thread, long after the frames the
/// chain names have returned). Asynchronous code reads ``inThisTask``: its own task's chain,
/// whose links the task-local binding that made them holds for as long as any code of the task
/// nested in it runs (a task started there holds its copy of the binding), so it outlives every
/// frame and suspension of the code that reads it. A task started inside a synchronous factory
/// (`Task.immediate`, `Task { }`, `Task.detached`) is asynchronous code like any other: it sees
/// the chain of its own task, never the factory's stack.
struct CreationChain {
    /// A stack link's record is a claim borrowed from its creator's frame; a node is a task's.
    typealias Word = ChainWord<CreationClaim, TaskLink>

    /// The innermost creation: a link read from this thread's slot, valid only in the
    /// synchronous code that read it, or a task's link, which its binding holds. One word, so
    /// passing a chain copies, retains and destroys nothing.
    let word: Word

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
    @available(
        *,
        noasync,
        message: "asynchronous code reads `inThisTask`: a thread's chain names frames an await outlives"
    )
    static func current() -> CreationChain? {
        if let word = Word.current(in: onThread) { return CreationChain(word: word) }
        return inThisTask
    }

    /// The asynchronous creation under way in this task: what asynchronous code reads, and may
    /// keep across its suspensions (its task's binding holds the links, see the type).
    static var inThisTask: CreationChain? {
        // While no asynchronous creation runs, no task holds a chain: one load spares the
        // task-local look-up (measured: 150 instructions in every scoped or singleton creation;
        // asking whether a task runs at all costs more, its types being resilient).
        guard asyncCreationsRunning.load(ordering: .relaxed) > 0 else { return nil }
        // The binding holds the link while any code of this task that can read it runs.
        return inTask.map { CreationChain(word: Word(node: Unretained($0))) }
    }

    /// How many asynchronous creations are under way in the process, each with its chain bound
    /// in its task (see ``running(_:_:)``). Written only around asynchronous creations, which
    /// are rare and cost far more than the two writes.
    ///
    /// A relaxed load is enough: a task that reads it inside its own creation, or inside a
    /// child task started there, is ordered after that creation's increment by the task
    /// itself; any other task has no chain bound, whatever it reads.
    private static let asyncCreationsRunning = Atomic<Int>(0)

    /// ``current()``, told it when the caller knows it: `known` is the bit pattern of the word
    /// of the chain ``running(_:within:_:)`` gave its body, on this thread, or `0` when unknown.
    /// Known, it spares reading the thread slot.
    @available(
        *,
        noasync,
        message: "asynchronous code reads `inThisTask`: a thread's chain names frames an await outlives"
    )
    static func current(known: UInt) -> CreationChain? {
        // The slot is looked up first, whether it is read or not: the creation that reads its
        // parent chain here then runs in the same slot (``running(_:within:_:)``), and with the
        // look-up on every path the two are one (measured: 17 instructions a scoped creation).
        let slot = onThread
        if let word = Word(bitPattern: known) { return CreationChain(word: word) }
        if let word = Word.current(in: slot) { return CreationChain(word: word) }
        return inThisTask
    }

    /// Runs `body` on a new thread with a large stack, which this one waits for, carrying
    /// ``current()`` there: the new thread runs on this one's behalf.
    @available(*, noasync)
    static func onFreshStack<Result>(_ body: () throws(GraftError) -> Result) throws(GraftError) -> Result {
        try Word.onFreshStack(carrying: current()?.word, in: onThread, body)
    }

    /// Set around synchronous creations.
    private static let onThread = ThreadSlot()

    /// Set around asynchronous creations, which may resume on another thread.
    @TaskLocal private static var inTask: TaskLink?

    private init(word: Word) {
        self.word = word
    }

    /// Runs the synchronous creation `claim` names, recorded on this thread as running inside
    /// `parent`, the current chain.
    ///
    /// Inlined, with what it calls: called from code that is not specialized, each generic
    /// layer costs a call passing type metadata and an indirect result.
    ///
    /// The claim is passed `inout` (`&claim`): the link borrows it, by the address Swift lends
    /// for the call, rather than copying it; the call is the link's whole life.
    ///
    /// `body` is given the new chain, which is the current one whenever `body`'s own code runs
    /// on this thread (nested creations end before they return): resolves nested in this
    /// creation pass it to ``ChainSource/thisThread(known:)``, which spares reading the slot.
    @inline(__always)
    @available(*, noasync)
    static func running<Result, Failure: Error>(
        _ claim: inout CreationClaim,
        within parent: CreationChain?,
        _ body: (_ chain: CreationChain) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try Word.withStackLink(&claim, parent: parent?.word, in: onThread) { (word) throws(Failure) -> Result in
            try body(CreationChain(word: word))
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
        var word: Word? = self.word
        while let current = word {
            switch current.link {
            case .stack(let claim, let parent):
                guard body(claim) else { return }
                word = parent
            case .node(let task):
                guard body(task.claim) else { return }
                // Each link holds its parent, and the task's binding the first.
                word = task.parent.map { Word(node: Unretained($0)) }
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

/// Where a resolve reads its creation chain: this thread's slot (synchronous code only, which the
/// compiler checks) or this task.
struct ChainSource {
    /// ``ResolveState/creation``, when the caller knows it; `0` otherwise.
    private let known: UInt
    private let readsThread: Bool

    /// The chain on this thread, `known` being the caller's ``ResolveState/creation``.
    @available(*, noasync, message: "asynchronous code reads `ChainSource.thisTask`")
    static func thisThread(known: UInt = 0) -> ChainSource {
        ChainSource(known: known, readsThread: true)
    }

    /// The chain of this task: what asynchronous code reads.
    static var thisTask: ChainSource { ChainSource(known: 0, readsThread: false) }

    /// The chain, read now. A source made by ``thisThread(known:)`` was made in synchronous
    /// code, which reads it before it returns.
    func read() -> CreationChain? {
        guard readsThread else { return CreationChain.inThisTask }
        return CreationChain.current(known: known)
    }
}
