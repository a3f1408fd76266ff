/// One word naming the innermost link of a chain whose links live either on threads' stacks or
/// in heap objects: the address of a ``StackLink`` in a frame on this thread's stack, or a
/// reference to a `Node`, tagged in its lowest bit. What a thread slot holds (see
/// ``ThreadSlot``) and what a stack link names as its parent.
///
/// The invariant, written once here: **whoever makes a word keeps what it names alive and in
/// place for as long as the word, and every copy of it, can be read.** A stack link is made by
/// ``withStackLink(_:parent:in:_:)`` in its own frame, and is in the thread's slot only while
/// that frame runs; a node is made into a word by its keeper (a task-local binding, say), which
/// holds it meanwhile. Either way the word is a plain pointer: copying it retains nothing.
///
/// Neither kind can be mistaken for the other: a stack link's address is a multiple of its
/// alignment and an object's a multiple of 16, so the lowest bit is free for the tag.
struct ChainWord<Record, Node: AnyObject> {
    private let raw: UnsafeRawPointer

    /// A link on a thread's stack: a record borrowed from the frame that made it, and the
    /// enclosing chain.
    private struct StackLink {
        let record: UnsafePointer<Record>
        let parent: ChainWord?
    }

    private static var nodeTag: Int { 1 }

    private init(raw: UnsafeRawPointer) {
        self.raw = raw
    }

    /// The word as a plain integer, for a value that must be `Sendable` to carry it; it names
    /// what the word names, under the same invariant.
    var bitPattern: UInt { UInt(bitPattern: raw) }

    /// The word whose ``bitPattern`` is `bitPattern`, or `nil` for `0`.
    init?(bitPattern: UInt) {
        guard let raw = UnsafeRawPointer(bitPattern: bitPattern) else { return nil }
        self.raw = raw
    }

    /// The word naming `node`, which the caller keeps alive while the word can be read.
    init(node: Unretained<Node>) {
        raw = UnsafeRawPointer(node.opaque) + Self.nodeTag
    }

    /// What a word names.
    enum Link {
        /// A stack link: its record, and the chain it runs in.
        case stack(Record, parent: ChainWord?)
        /// A node.
        case node(Node)
    }

    /// What this word names.
    var link: Link {
        if Int(bitPattern: raw) & Self.nodeTag != 0 {
            return .node(Unretained<Node>(opaque: raw - Self.nodeTag).object)
        }
        let stackLink = raw.assumingMemoryBound(to: StackLink.self).pointee
        return .stack(stackLink.record.pointee, parent: stackLink.parent)
    }

    /// The word in `slot` on this thread, if any: valid only in the synchronous code that reads
    /// it, so no asynchronous function may (see ``ThreadSlot/read()``).
    @available(*, noasync)
    static func current(in slot: ThreadSlot) -> ChainWord? {
        slot.read().map(ChainWord.init(raw:))
    }

    /// Runs `body` on a new thread with a large stack (see ``StackExtension``), with `word` in
    /// `slot` there: this thread waits meanwhile, and so keeps what `word` names alive.
    static func onFreshStack<Result>(
        carrying word: ChainWord?,
        in slot: ThreadSlot,
        _ body: () throws(GraftError) -> Result
    ) throws(GraftError) -> Result {
        try StackExtension.run(carrying: word?.raw, in: slot, body)
    }

    /// Runs `body` with a new stack link, naming `record` inside `parent`, in this thread's
    /// `slot`.
    ///
    /// The record is passed by address (`&record`): the link borrows it rather than copying
    /// it, and the caller's variable outlives the call, which is the link's whole life. The
    /// link is a variable of this frame, so its address is valid for the whole call.
    ///
    /// `body` is given the new link's word, which `slot` holds whenever `body`'s own code runs
    /// (nested links are gone before they return): code that carries it down spares reading
    /// the slot.
    ///
    /// Inlined, with the thread slot's `with`: called from code that is not specialized, each
    /// generic layer costs a call passing type metadata and an indirect result.
    @inline(__always)
    static func withStackLink<Result, Failure: Error>(
        _ record: UnsafePointer<Record>,
        parent: ChainWord?,
        in slot: ThreadSlot,
        _ body: (ChainWord) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var link = StackLink(record: record, parent: parent)
        // `&link` as an argument rather than `withUnsafePointer` with a closure returning
        // `Result`, which would be called through its generic entry point in code that is not
        // specialized (measured: about 140 instructions a creation).
        return try slot.with(&link) { (address) throws(Failure) -> Result in
            try body(ChainWord(raw: address))
        }
    }
}
